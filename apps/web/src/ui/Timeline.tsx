import { dateTimeFormat, formatOrderDate } from '@pixel-vault/shared';

/** One line of a timeline: when, what happened (in the reader's words), and an optional note. */
export interface TimelineEntry {
  at: string;
  text: string;
  note?: string | null;
}

/** "Nov 27th 26, 5:10 AM": a timeline line's moment; empty for a date that does not parse. */
export function timelineTime(at: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  return `${formatOrderDate(date)}, ${dateTimeFormat({ hour: 'numeric', minute: '2-digit' }).format(date)}`;
}

/** What happened, oldest first, as an ordered list named `label` (a trade-in's, for the shopper or the admin). */
export function Timeline({ label, entries }: { label: string; entries: readonly TimelineEntry[] }) {
  if (entries.length === 0) return <p className="text-zinc-300">Nothing has happened yet.</p>;
  return (
    <ol aria-label={label} className="flex flex-col">
      {entries.map((entry, index) => (
        <li key={index} className="flex flex-col gap-1 border-b border-zinc-800 py-2 last:border-b-0">
          <time dateTime={entry.at} className="text-sm text-zinc-400">
            {timelineTime(entry.at)}
          </time>
          <p className="font-semibold text-zinc-100">{entry.text}</p>
          {entry.note && <p className="text-sm break-words text-zinc-300">{entry.note}</p>}
        </li>
      ))}
    </ol>
  );
}
