import { describe, expect, it } from 'vitest';
import {
  FORMER_CUSTOMER_NAME,
  HideReviewBody,
  ReviewBody,
  ReviewListQuery,
  reviewerName,
} from './reviews.js';

describe('reviewerName', () => {
  it('shows the first name and the initial of the last, as typed', () => {
    expect(reviewerName('Marco Tessaro')).toBe('Marco T.');
    expect(reviewerName('  Ana  Maria   de la Cruz ')).toBe('Ana C.');
    expect(reviewerName('Cher')).toBe('Cher');
    expect(reviewerName('Zoë Ölander')).toBe('Zoë Ö.');
    expect(reviewerName('Jo 😀Smile')).toBe('Jo 😀.');
  });

  it('names a deleted author a former customer', () => {
    for (const gone of [null, undefined, '', '   ']) expect(reviewerName(gone)).toBe(FORMER_CUSTOMER_NAME);
  });
});

describe('review schemas', () => {
  it('trims the text and takes whole stars from 1 to 5', () => {
    expect(ReviewBody.parse({ rating: 5, title: '  Great  ', comment: ' Yes ' })).toEqual({
      rating: 5,
      title: 'Great',
      comment: 'Yes',
    });
    for (const rating of [0, 6, 4.5, '4', null]) {
      expect(ReviewBody.safeParse({ rating, title: 'a', comment: 'b' }).success, String(rating)).toBe(false);
    }
  });

  it('defaults the list to page 1, newest first, and hide to an empty body', () => {
    expect(ReviewListQuery.parse({})).toEqual({ page: 1, sort: 'newest' });
    expect(ReviewListQuery.parse({ page: '3', sort: 'lowest' })).toEqual({ page: 3, sort: 'lowest' });
    expect(ReviewListQuery.safeParse({ sort: 'best' }).success).toBe(false);
    expect(HideReviewBody.parse({})).toEqual({});
  });
});
