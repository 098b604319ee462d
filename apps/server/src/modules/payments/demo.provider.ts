import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { demoPaymentOrders } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import {
  type PaymentProvider,
  type ProviderPayment,
  captureNotFound,
  paymentDeclined,
} from './payment.provider.js';

const CAPTURE_PREFIX = 'DEMO-CAPTURE-';

/**
 * Demo mode (no PayPal credentials): the same interface, no money moves. Its orders live in the
 * database, so demo checkouts survive restarts and work across instances.
 */
export function createDemoProvider({ db }: { db: Database }): PaymentProvider {
  const read = (row: typeof demoPaymentOrders.$inferSelect): ProviderPayment => ({
    status: row.status,
    captureId: row.status === 'COMPLETED' ? `${CAPTURE_PREFIX}${row.id.slice(5)}` : null,
    captureStatus: row.status === 'COMPLETED' ? 'COMPLETED' : null,
    referenceId: null,
    amountCents: row.amountCents,
    currency: row.currency,
    payerEmail: null,
  });

  async function find(id: string) {
    const [row] = await db.select().from(demoPaymentOrders).where(eq(demoPaymentOrders.id, id));
    if (!row) throw new AppError(404, 'PayPal order not found', 'PAYPAL_ORDER_NOT_FOUND');
    return row;
  }

  return {
    mode: 'demo',
    clientId: 'demo',
    async createOrder({ amountCents, currency }) {
      const [row] = await db
        .insert(demoPaymentOrders)
        .values({ id: `DEMO-${randomUUID()}`, amountCents, currency })
        .returning();
      if (!row) throw new Error('Demo order insert returned no row');
      return { id: row.id, status: row.status };
    },
    async captureOrder({ providerOrderId }) {
      // Completes for exactly the stored amount; capturing again answers the same completed order.
      await db
        .update(demoPaymentOrders)
        .set({ status: 'COMPLETED' })
        .where(
          sql`${demoPaymentOrders.id} = ${providerOrderId} and ${demoPaymentOrders.status} <> 'COMPLETED'`,
        );
      return read(await find(providerOrderId));
    },
    async getOrder(providerOrderId) {
      return read(await find(providerOrderId));
    },
    async refundCapture({ captureId, amountCents, currency }) {
      const [row] = captureId.startsWith(CAPTURE_PREFIX)
        ? await db
            .select()
            .from(demoPaymentOrders)
            .where(eq(demoPaymentOrders.id, `DEMO-${captureId.slice(CAPTURE_PREFIX.length)}`))
        : [];
      if (row?.status !== 'COMPLETED') throw captureNotFound();
      if (currency !== row.currency || amountCents <= 0 || amountCents > row.amountCents) {
        throw paymentDeclined();
      }
      // No money moved, so none goes back, and the demo order keeps its status (its CHECK allows
      // only CREATED/APPROVED/COMPLETED). The id comes from the capture: asking again answers the same.
      return { id: `DEMO-REFUND-${row.id.slice(5)}`, status: 'COMPLETED' };
    },
    async verifyWebhook() {
      return false;
    },
  };
}
