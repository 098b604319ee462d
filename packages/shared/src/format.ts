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

/**
 * One format per time zone, made on first use: making one is the costly part (the first in a page
 * loads the locale's data), and an order list or a mail dates many orders.
 */
const orderDateFormats = new Map<string | undefined, Intl.DateTimeFormat>();

function orderDateFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  let format = orderDateFormats.get(timeZone);
  if (!format) {
    // An unknown time zone throws here, at every call, and is never kept.
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    });
    orderDateFormats.set(timeZone, format);
  }
  return format;
}

/** Spec section 9 order date: "Jan 5th 24" (month abbreviation, day with ordinal, two-digit year). */
export function formatOrderDate(value: string | number | Date, timeZone?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const parts = orderDateFormat(timeZone).formatToParts(date);
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
