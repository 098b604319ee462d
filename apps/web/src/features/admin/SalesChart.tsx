import { useId, useState } from 'react';
import { dateTimeFormat, formatDollars, type StatsDay } from '@pixel-vault/shared';

/** Each day's slot in the drawing's own units; the bar leaves a gap of 1 on each side. */
const SLOT = 10;
const HEIGHT = 100;

/** "2026-11-23" -> "Nov 23, 2026": a calendar day, read as such (no time zone moves it). */
export function formatDay(day: string, withYear = true): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return dateTimeFormat({
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    ...(withYear ? { year: 'numeric' } : {}),
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** What the chart shows, in one sentence: its accessible name. */
export function chartSummary(days: readonly StatsDay[]): string {
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return 'Revenue per day: no days';
  const best = days.reduce((top, day) => (day.revenue > top.revenue ? day : top), first);
  const revenue = days.reduce((sum, day) => sum + day.revenue, 0);
  const orders = days.reduce((sum, day) => sum + day.orders, 0);
  return (
    `Revenue per day from ${formatDay(first.date)} to ${formatDay(last.date)}: ` +
    `${formatDollars(revenue)} from ${orders} paid ${orders === 1 ? 'order' : 'orders'}` +
    (best.revenue > 0 ? `; best day ${formatDay(best.date)} with ${formatDollars(best.revenue)}.` : '.')
  );
}

/**
 * The sales per day as bars (issue 15), hand-drawn in SVG: no chart library in the admin chunk. The
 * drawing stretches to any width (a 360 px phone shows a year as hairlines), so its labels are HTML
 * beside it, never stretched text. Screen readers get the summary as the image's name and every number
 * in a table, which a toggle also shows on screen.
 */
export function SalesChart({ days }: { days: readonly StatsDay[] }) {
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  const max = Math.max(0, ...days.map((day) => day.revenue));
  const width = Math.max(1, days.length) * SLOT;
  const first = days[0];
  const last = days[days.length - 1];

  return (
    <figure className="flex flex-col gap-2">
      <div className="flex items-baseline justify-between gap-2 text-xs text-zinc-400">
        <span aria-hidden="true">{formatDollars(max)}</span>
        <button
          type="button"
          className="btn btn-secondary px-3 py-1 text-xs"
          aria-expanded={showTable}
          aria-controls={tableId}
          onClick={() => setShowTable((shown) => !shown)}
        >
          {showTable ? 'Hide table' : 'Show as table'}
        </button>
      </div>
      <svg
        role="img"
        aria-label={chartSummary(days)}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        fill="currentColor"
        className="h-32 w-full border-b-2 border-zinc-700 bg-zinc-950 text-lime-400"
      >
        {days.map((day, index) => {
          const height = max > 0 ? (day.revenue / max) * (HEIGHT - 4) : 0;
          return height > 0 ? (
            <rect key={day.date} x={index * SLOT + 1} y={HEIGHT - height} width={SLOT - 2} height={height}>
              <title>{`${formatDay(day.date)}: ${formatDollars(day.revenue)}, ${day.orders} orders`}</title>
            </rect>
          ) : null;
        })}
      </svg>
      {first && last && (
        <div aria-hidden="true" className="flex justify-between text-xs text-zinc-400">
          <span>{formatDay(first.date, false)}</span>
          <span>{formatDay(last.date, false)}</span>
        </div>
      )}
      <figcaption className="sr-only">Revenue of paid orders per day</figcaption>
      <div id={tableId} className={showTable ? 'max-h-[90vh] overflow-y-auto' : 'sr-only'}>
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">Sales per day</caption>
          <thead className="text-zinc-400">
            <tr>
              <th scope="col" className="border-b-2 border-zinc-700 px-2 py-1">
                Date
              </th>
              <th scope="col" className="border-b-2 border-zinc-700 px-2 py-1 text-right">
                Orders
              </th>
              <th scope="col" className="border-b-2 border-zinc-700 px-2 py-1 text-right">
                Revenue
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date} className="border-b border-zinc-800">
                <th scope="row" className="px-2 py-1 whitespace-nowrap">
                  {formatDay(day.date)}
                </th>
                <td className="px-2 py-1 text-right">{day.orders}</td>
                <td className="px-2 py-1 text-right">{formatDollars(day.revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
