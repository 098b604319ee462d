import { type WebhookPayload, toDollars } from '@pixel-vault/shared';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { orders, tradeIns, type WebhookEventRow } from '../../db/schema/index.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import { orderDto } from '../orders/orders.repo.js';
import { tradeInAnswers } from '../tradeins/tradeins.answer.js';

/**
 * The body of an event (packages/shared WebhookPayload): built once, at its first delivery attempt,
 * kept in webhook_events.payload, and sent as the same bytes to every endpoint on every attempt (the
 * signature covers these bytes; a receiver that dedupes on webhook-id sees one body per id).
 */
export function buildPayload(type: string, at: Date, data: Record<string, unknown>): string {
  const payload: WebhookPayload = { type, timestamp: at.toISOString(), data };
  return JSON.stringify(payload);
}

const PRODUCT_FIELDS = ['productId', 'variantId', 'sku', 'name', 'stock', 'threshold'] as const;

/**
 * What `data` holds for an event, read as the API answers it now (within a second of the change,
 * normally): an order as an admin's GET /api/orders/:id (with the customer and the timeline), a
 * trade-in as an admin's GET /api/tradeins/:id, a product's stock as the trigger saw it at commit.
 * A row gone since (an order cannot be deleted, a trade-in can with its account) sends the facts the
 * trigger kept.
 */
export async function eventData(
  ex: Executor,
  event: Pick<WebhookEventRow, 'type' | 'subject'>,
  publicUrl: PublicUrlOf,
): Promise<Record<string, unknown>> {
  const subject = event.subject;
  if (event.type.startsWith('order.')) {
    const [row] = await ex
      .select()
      .from(orders)
      .where(eq(orders.id, String(subject.orderId)));
    if (!row) return subject;
    const order = await orderDto(ex, row, publicUrl, { forAdmin: true });
    if (event.type === 'order.refunded') {
      // Which refund this event is (an order may be refunded in parts), in the API's dollars.
      return {
        ...order,
        refund: { refundId: subject.refundId, amount: toDollars(Number(subject.amountCents)) },
      };
    }
    return order;
  }
  if (event.type.startsWith('product.')) {
    return Object.fromEntries(PRODUCT_FIELDS.filter((k) => k in subject).map((k) => [k, subject[k]]));
  }
  if (event.type === 'tradein.accepted') {
    const [row] = await ex
      .select()
      .from(tradeIns)
      .where(eq(tradeIns.id, String(subject.tradeInId)));
    if (!row) return subject;
    const [answer] = await tradeInAnswers(ex, [row], publicUrl, { forAdmin: true });
    return answer ?? subject;
  }
  return subject;
}
