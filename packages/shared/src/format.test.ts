import { describe, expect, it } from 'vitest';
import { categoryLabel, dateTimeFormat, formatOrderDate, ordinal, roundToHalf } from './format.js';

describe('formatOrderDate (spec: "Jan 5th 24")', () => {
  it('writes month abbreviation, ordinal day and two-digit year', () => {
    expect(formatOrderDate('2024-01-05T12:00:00Z', 'UTC')).toBe('Jan 5th 24');
    expect(formatOrderDate('2026-11-21T08:00:00Z', 'UTC')).toBe('Nov 21st 26');
    expect(formatOrderDate('2025-03-02T08:00:00Z', 'UTC')).toBe('Mar 2nd 25');
    expect(formatOrderDate('2025-07-23T08:00:00Z', 'UTC')).toBe('Jul 23rd 25');
    expect(formatOrderDate('2009-12-11T08:00:00Z', 'UTC')).toBe('Dec 11th 09');
  });

  it('uses the given time zone for the calendar day', () => {
    expect(formatOrderDate('2024-01-05T02:00:00Z', 'America/Los_Angeles')).toBe('Jan 4th 24');
  });

  it("keeps one format per time zone: zones asked in turn do not borrow each other's", () => {
    const at = '2024-01-05T02:00:00Z';
    for (let round = 0; round < 2; round += 1) {
      expect(formatOrderDate(at, 'UTC')).toBe('Jan 5th 24');
      expect(formatOrderDate(at, 'America/Los_Angeles')).toBe('Jan 4th 24');
      expect(formatOrderDate(at, 'Asia/Tokyo')).toBe('Jan 5th 24');
      expect(formatOrderDate('2024-01-05T20:00:00Z', 'Asia/Tokyo')).toBe('Jan 6th 24');
    }
  });

  it('refuses an unknown time zone every time, never keeping it', () => {
    expect(() => formatOrderDate('2024-01-05T02:00:00Z', 'Mars/Olympus_Mons')).toThrow(RangeError);
    expect(() => formatOrderDate('2024-01-05T02:00:00Z', 'Mars/Olympus_Mons')).toThrow(RangeError);
  });

  it('answers an empty string for an invalid date instead of "NaN"', () => {
    expect(formatOrderDate('not a date')).toBe('');
  });
});

describe('dateTimeFormat', () => {
  it('makes one format per set of options and answers it again', () => {
    const time = dateTimeFormat({ hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
    expect(dateTimeFormat({ hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })).toBe(time);
    expect(time.format(new Date('2024-01-05T14:05:00Z'))).toBe('2:05 PM');
    const day = dateTimeFormat({ month: 'short', day: 'numeric', timeZone: 'UTC' });
    expect(day).not.toBe(time);
    expect(day.format(new Date('2024-01-05T14:05:00Z'))).toBe('Jan 5');
  });
});

describe('ordinal', () => {
  it.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [31, '31st'],
    [111, '111th'],
  ])('%i -> %s', (n, expected) => {
    expect(ordinal(n)).toBe(expected);
  });
});

describe('roundToHalf (star rating)', () => {
  it('rounds to the nearest 0.5 within 0..5', () => {
    expect(roundToHalf(4.2)).toBe(4);
    expect(roundToHalf(4.25)).toBe(4.5);
    expect(roundToHalf(4.74)).toBe(4.5);
    expect(roundToHalf(4.75)).toBe(5);
    expect(roundToHalf(7)).toBe(5);
    expect(roundToHalf(-1)).toBe(0);
    expect(roundToHalf(Number.NaN)).toBe(0);
  });
});

describe('categoryLabel', () => {
  it('shows hyphens as spaces', () => {
    expect(categoryLabel('retro-games')).toBe('retro games');
    expect(categoryLabel('puzzles')).toBe('puzzles');
  });
});
