import { MONTHS } from '@pixel-vault/shared';

/** "1 review", "12 reviews". */
export function reviewCountText(count: number): string {
  return `${count} ${count === 1 ? 'review' : 'reviews'}`;
}

/**
 * "Jan 5, 2024" (the reader's time zone: reviews are drawn in the browser, never on the server): what
 * Intl's en-US medium date writes, by arithmetic. The first Intl format a page creates loads the
 * locale's data (24-104 ms in Chromium on the benchmark machine), and this was the product page's only
 * one (issue 10).
 */
export function reviewDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/** Edited: changed more than a minute after it was written. */
export function wasEdited(review: { createdAt: string; updatedAt: string }): boolean {
  return Date.parse(review.updatedAt) - Date.parse(review.createdAt) > 60_000;
}
