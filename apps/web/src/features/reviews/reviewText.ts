/** "1 review", "12 reviews". */
export function reviewCountText(count: number): string {
  return `${count} ${count === 1 ? 'review' : 'reviews'}`;
}

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** "Jan 5, 2024" (the reader's time zone: reviews are drawn in the browser, never on the server). */
export function reviewDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : DATE.format(date);
}

/** Edited: changed more than a minute after it was written. */
export function wasEdited(review: { createdAt: string; updatedAt: string }): boolean {
  return Date.parse(review.updatedAt) - Date.parse(review.createdAt) > 60_000;
}
