/** The months as en-US dates abbreviate them. */
export const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

/** 1 -> "1st", 2 -> "2nd", 11 -> "11th", 22 -> "22nd". */
export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The en-US date format with these options, made once, on first use: making one is the costly part
 * (the first in a page loads the locale's data), and lists and mails date many rows. An unknown time
 * zone throws here, at every call, and is never kept.
 */
export function dateTimeFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', options);
    dateFormats.set(key, format);
  }
  return format;
}

/** Spec section 9 order date: "Jan 5th 24" (month abbreviation, day with ordinal, two-digit year). */
export function formatOrderDate(value: string | number | Date, timeZone?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const parts = dateTimeFormat({ timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(
    date,
  );
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const month = MONTHS[get('month') - 1] ?? '';
  const year = String(get('year') % 100).padStart(2, '0');
  return `${month} ${ordinal(get('day'))} ${year}`;
}

/** Spec: star rating rounded to the nearest 0.5, out of 5. */
export function roundToHalf(rating: number): number {
  if (!Number.isFinite(rating)) return 0;
  return Math.min(5, Math.max(0, Math.round(rating * 2) / 2));
}

/** "board-games" -> "board games" (spec: category shown with hyphens as spaces). */
export function categoryLabel(slug: string): string {
  return slug.replace(/-/g, ' ');
}

/** An order's number as people read it (issue 30): `#1042`. */
export const orderNumberText = (orderNumber: number): string => `#${orderNumber}`;
