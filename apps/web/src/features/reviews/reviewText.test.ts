import { describe, expect, it } from 'vitest';
import { reviewCountText, reviewDate } from './reviewText';

describe('review texts', () => {
  it("writes a review's date as Intl's en-US medium date does, in the reader's time zone", () => {
    const intl = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
    // Every month, days at both ends, around midnight UTC (the reader's zone decides the day), 1970-2099.
    for (let i = 0, x = 11; i < 3000; i += 1) {
      x = (x * 48271) % 2147483647;
      const at = Date.UTC(1970 + (x % 130), x % 12, 1 + (x % 31), (x >> 3) % 24, (x >> 5) % 60);
      const iso = new Date(at).toISOString();
      expect(reviewDate(iso)).toBe(intl.format(new Date(at)));
    }
    expect(reviewDate('2024-01-05T12:00:00.000Z')).toBe(intl.format(new Date('2024-01-05T12:00:00.000Z')));
    expect(reviewDate('not a date')).toBe('');
  });

  it('counts reviews in words', () => {
    expect(reviewCountText(1)).toBe('1 review');
    expect(reviewCountText(12)).toBe('12 reviews');
  });
});
