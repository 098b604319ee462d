import type { Order } from '@pixel-vault/shared';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { makeOrder, paid } from '../../test/orders';

export interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/** An answer of its own (a promise: answered later, to see a call under way), or undefined to fall through. */
type Override = (body: unknown, sent: Sent[]) => Response | Promise<Response> | undefined;

/**
 * A stand-in for the shop's API at the fetch edge: one order per POST /api/orders (the given ones in
 * turn; one named as `replacesOrderId` gives its card money back), gift cards 'GOOD' with `balance` dollars, the demo or PayPal provider. `overrides` answer
 * first (return undefined to fall through).
 */
export function fakeShop({
  orders = [makeOrder()],
  balance = 25,
  mode = 'demo',
  overrides = {},
}: {
  orders?: Order[];
  balance?: number;
  mode?: 'demo' | 'paypal';
  overrides?: Record<string, Override>;
} = {}) {
  const sent: Sent[] = [];
  const byId = new Map<string, Order>();
  let created = 0;
  let cardCents = Math.round(balance * 100);

  const mock = stubFetch(async (request, url) => {
    const text = request.method === 'GET' ? '' : await request.text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    sent.push({ method: request.method, path: url.pathname, body });
    const key = `${request.method} ${url.pathname}`;
    const answer = overrides[key]?.(body, sent);
    if (answer) return answer;

    if (key === 'GET /api/config') {
      return jsonResponse({ clientId: mode === 'paypal' ? 'test-client-id' : '', mode, currency: 'USD' });
    }
    if (key === 'POST /api/orders') {
      // Like the server, releasing the replaced order gives its gift-card money back to the card.
      const replaced = byId.get((body as { replacesOrderId?: string }).replacesOrderId ?? '');
      if (replaced && !replaced.isPaid) cardCents += Math.round(replaced.giftCardAmount * 100);
      const order = orders[Math.min(created, orders.length - 1)]!;
      created += 1;
      byId.set(order._id, order);
      return jsonResponse(order, 201);
    }
    if (key === 'POST /api/giftcards/check-balance') {
      const { code } = body as { code: string };
      return code === 'GOOD'
        ? jsonResponse({ balance: cardCents / 100 })
        : jsonResponse({ message: 'Gift card not found' }, 404);
    }
    if (key === 'POST /api/giftcards/use') {
      const { orderId, amount } = body as { orderId: string; amount: number };
      const order = byId.get(orderId);
      if (!order) return jsonResponse({ message: 'Order not found' }, 404);
      const appliedCents = Math.round(amount * 100);
      const dueCents = Math.round(order.amountDue * 100) - appliedCents;
      cardCents -= appliedCents;
      const next = { ...order, giftCardAmount: appliedCents / 100, amountDue: dueCents / 100 };
      byId.set(orderId, dueCents === 0 ? paid(next, { paymentMethod: 'Gift Card' }) : next);
      return jsonResponse({
        orderId,
        balance: cardCents / 100,
        updatedBalance: cardCents / 100,
        applied: appliedCents / 100,
        amountDue: dueCents / 100,
        message: 'Gift card applied.',
      });
    }
    const match = /^\/api\/orders\/([^/]+)(\/.*)?$/.exec(url.pathname);
    const order = match ? byId.get(match[1]!) : undefined;
    if (match && order) {
      const rest = `${request.method} ${match[2] ?? ''}`;
      if (rest === 'GET ') return jsonResponse(order);
      if (rest === 'PUT /payment') {
        if (order.amountDue > 0) return jsonResponse({ message: 'Payment is missing $1.00' }, 402);
        const done = paid(order);
        byId.set(order._id, done);
        return jsonResponse(done);
      }
      if (rest === 'POST /paypal')
        return jsonResponse({ id: `PAYPAL-${order._id.slice(-4)}`, status: 'CREATED' });
      if (rest === 'POST /paypal/capture') {
        const done = paid(order, { paymentMethod: 'paypal' });
        byId.set(order._id, done);
        return jsonResponse(done);
      }
    }
    return jsonResponse({ message: `No route ${key}` }, 404);
  });

  return {
    mock,
    sent,
    /** The requests sent to `METHOD /path` (exact). */
    calls: (method: string, path: string) => sent.filter((s) => s.method === method && s.path === path),
  };
}
