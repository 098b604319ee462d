import { Counter, type Registry } from 'prom-client';
import type { Signals } from '../../lib/signals.js';

/**
 * The shop's events as counters (issue 37): the services call these through lib/signals.ts after
 * their change committed. The rare ones (orders, payments, refusals) go through prom-client's
 * counters as they are; the catalogue cache's, called on every catalogue answer, are plain numbers
 * handed to prom-client when Prometheus scrapes.
 */
export function createShopMetrics(registry: Registry, prefix: string): Signals {
  const counter = <L extends string = never>(name: string, help: string, labelNames: L[] = []) =>
    new Counter<L>({ name: `${prefix}${name}`, help, labelNames, registers: [registry] });

  const placed = counter('orders_placed_total', 'Orders placed.');
  const paid = counter('orders_paid_total', 'Orders that became paid (gift cards, demo provider, PayPal).');
  const cancelled = counter(
    'orders_cancelled_total',
    'Orders cancelled by their customer (a paid one is refunded in full).',
  );
  const refunded = counter('orders_refunded_total', "Admins' refunds completed, partial or full.");
  const payments = counter('payments_total', "Providers' answers to taking money, by provider and outcome.", [
    'provider',
    'outcome',
  ]);
  const giftCardRefusals = counter(
    'giftcard_code_refusals_total',
    'Gift-card codes refused: unknown, or the wrong-code budget used up (rate_limited).',
    ['reason'],
  );
  const discountRefusals = counter(
    'discount_code_refusals_total',
    'Discount codes refused: unknown, or the wrong-code budget used up (rate_limited).',
    ['reason'],
  );

  let hits = 0;
  let misses = 0;
  /** A counter whose value is a number kept elsewhere, read at scrape. */
  const scraped = (name: string, help: string, read: () => number) => {
    let reported = 0;
    return new Counter({
      name: `${prefix}${name}`,
      help,
      registers: [registry],
      collect() {
        const now = read();
        if (now > reported) this.inc(now - reported);
        reported = now;
      },
    });
  };
  scraped('catalogue_cache_hits_total', 'Catalogue answers served from memory.', () => hits);
  scraped(
    'catalogue_cache_misses_total',
    'Catalogue answers loaded from the database (not kept, or past their lifetime).',
    () => misses,
  );

  return {
    orderPlaced: () => placed.inc(),
    orderPaid: () => paid.inc(),
    orderCancelled: () => cancelled.inc(),
    orderRefunded: () => refunded.inc(),
    paymentOutcome: (provider, outcome) => payments.inc({ provider, outcome }),
    giftCardCodeRefused: (reason) => giftCardRefusals.inc({ reason }),
    discountCodeRefused: (reason) => discountRefusals.inc({ reason }),
    catalogueCacheHit() {
      hits += 1;
    },
    catalogueCacheMiss() {
      misses += 1;
    },
  };
}
