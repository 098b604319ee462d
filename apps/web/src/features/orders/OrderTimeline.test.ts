import { describe, expect, it } from 'vitest';
import type { OrderEvent } from '@pixel-vault/shared';
import { eventText } from './OrderTimeline';

const event = (over: Partial<OrderEvent>): OrderEvent => ({
  at: '2026-11-26T10:00:00.000Z',
  event: 'placed',
  by: 'customer',
  amount: null,
  note: null,
  ...over,
});

describe('the timeline in words for its reader (issue 30)', () => {
  it('says "you" and "we" to the customer, whoever moved the money', () => {
    expect(eventText(event({ event: 'cancelled' }), 'customer', 'Ada')).toBe('You cancelled this order');
    expect(eventText(event({ event: 'cancelled', by: 'admin' }), 'customer', 'Ada')).toBe(
      'We cancelled this order',
    );
    // The refund of a customer's own cancellation was "Refund issued by the customer".
    expect(eventText(event({ event: 'refunded', amount: 12 }), 'customer', 'Ada')).toBe(
      'We refunded {amount}',
    );
  });

  it('names the customer, an admin or the shop to an admin', () => {
    expect(eventText(event({ event: 'cancelled' }), 'admin', 'Ada Lovelace')).toBe(
      'Cancelled by Ada Lovelace',
    );
    expect(eventText(event({ event: 'refunded', amount: 12 }), 'admin', 'Ada Lovelace')).toBe(
      "Refunded {amount} for Ada Lovelace's cancellation",
    );
    expect(eventText(event({ event: 'refunded', by: 'admin' }), 'admin', 'Ada')).toBe(
      'Refunded {amount} by an admin',
    );
    expect(eventText(event({ event: 'expired', by: 'system' }), 'admin', 'Ada')).toBe(
      'Expired: not paid in time',
    );
  });
});
