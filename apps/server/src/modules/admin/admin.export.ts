import { Readable, pipeline } from 'node:stream';
import { sql } from 'drizzle-orm';
import { stringify } from 'csv-stringify';
import { toDollars } from '@pixel-vault/shared';

/**
 * What the admin's exports share (split from admin.service.ts, issue 35): the shop's days as SQL
 * bounds, and the CSV writer, streamed a batch at a time, every text cell neutralised.
 */

/** Rows per query of an export: 100,000 orders are read 1,000 at a time, never all at once. */
export const EXPORT_BATCH = 1000;

export interface CsvDownload {
  filename: string;
  stream: Readable;
}

/** `YYYY-MM-DD` of `at` in `timeZone`. */
export function dayIn(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** `day` moved by `delta` calendar days (plain dates: no zone, no daylight saving). */
export function addDays(day: string, delta: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + delta)).toISOString().slice(0, 10);
}

/** The instant a shop day starts: midnight of `day` in `timeZone`, worked out by the database. */
export const dayStart = (day: string, timeZone: string) =>
  sql`(${day}::date::timestamp at time zone ${timeZone})`;

/**
 * A spreadsheet runs a cell beginning with = + - @ (or a tab or carriage return before one) as a
 * formula: such a cell is written with a leading ' so it stays text (OWASP "CSV injection"). A cell
 * that itself begins with ' gets one too, so the import (admin.import.csv.ts `unneutralise`) can take
 * off exactly the ones added here: a description that really starts with '= survives the round trip.
 */
export function neutralise(cell: string): string {
  return /^[=+\-@\t\r']/.test(cell) ? `'${cell}` : cell;
}

/** Cents as the exports write money: dollars with two decimals. */
export const money = (cents: number) => toDollars(cents).toFixed(2);

/** RFC 4180: CRLF between records, a field quoted when it holds a comma, a quote or a line break. */
export function csvStream(
  columns: readonly string[],
  rows: AsyncGenerator<Record<string, string | number | boolean | null>>,
  onError: (error: Error) => void,
): Readable {
  const writer = stringify({
    header: true,
    columns: [...columns],
    record_delimiter: 'windows',
    cast: {
      boolean: (value) => (value ? 'true' : 'false'),
      string: (value) => neutralise(value),
    },
  });
  // Pulled a batch at a time: the next query runs only when the client has read what came before.
  return pipeline(Readable.from(rows), writer, (error) => {
    if (error) onError(error);
  });
}
