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

  const adaAdmin = { name: 'Ada Admin', email: 'ada@shop.test' };

  it('names the admin who did it, with their e-mail, to an admin; "an admin" once the account is gone', () => {
    expect(
      eventText(event({ event: 'refunded', by: 'admin', amount: 10, byUser: adaAdmin }), 'admin', 'Cleo'),
    ).toBe('Refunded {amount} by Ada Admin (ada@shop.test)');
    expect(eventText(event({ event: 'delivered', by: 'admin', byUser: adaAdmin }), 'admin', 'Cleo')).toBe(
      'Marked as delivered by Ada Admin (ada@shop.test)',
    );
    expect(eventText(event({ event: 'cancelled', by: 'admin', byUser: adaAdmin }), 'admin', 'Cleo')).toBe(
      'Cancelled by Ada Admin (ada@shop.test)',
    );
    // A deleted admin: the server names nobody.
    expect(eventText(event({ event: 'refunded', by: 'admin', amount: 10 }), 'admin', 'Cleo')).toBe(
      'Refunded {amount} by an admin',
    );
  });

  it("names the customer by the event's account when the order does not name them", () => {
    const cleo = { name: 'Cleo Customer', email: 'cleo@example.com' };
    expect(eventText(event({ event: 'cancelled', byUser: cleo }), 'admin')).toBe(
      'Cancelled by Cleo Customer',
    );
    expect(eventText(event({ event: 'cancelled', byUser: cleo }), 'admin', 'Cleo C.')).toBe(
      'Cancelled by Cleo C.',
    );
    expect(eventText(event({ event: 'placed' }), 'admin')).toBe('Placed by the customer');
  });

  it('never names an admin to the customer, even when the event carries one', () => {
    const texts = (
      ['placed', 'paid', 'delivered', 'cancelled', 'refunded', 'refund_failed', 'expired'] as const
    ).map((kind) =>
      eventText(event({ event: kind, by: 'admin', amount: 10, byUser: adaAdmin }), 'customer', 'Cleo'),
    );
    for (const text of texts) {
      expect(text).not.toMatch(/Ada|ada@shop\.test|an admin/);
    }
    expect(texts[3]).toBe('We cancelled this order');
    expect(texts[4]).toBe('We refunded {amount}');
  });
});
