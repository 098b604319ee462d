import { useEffect, useRef, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { toDollars, type Order } from '@pixel-vault/shared';
import { useAppDispatch } from '../../app/hooks';
import type { CartItem, PaymentMethod, ShippingAddress } from '../../app/cartSlice';
import { ordersApi, useCreateOrderMutation, useGetOrderQuery } from '../../app/ordersApi';
import { checkoutTotals } from './checkoutTotals';
import { orderLines } from './orderLines';

interface Current {
  id: string;
  signature: string;
  created: Order;
}

/**
 * What the order was made from: another cart (issue 31: another tier too), address or discount code
 * (issue 32) needs another order.
 */
function signatureOf(
  items: readonly CartItem[],
  address: ShippingAddress | null,
  discountCode: string | null,
): string {
  return JSON.stringify([items.map((i) => [i.product, i.variant ?? null, i.qty]), address, discountCode]);
}

/**
 * One server order per checkout attempt (issue 3): created when the customer first needs it (applying
 * a gift card, PayPal's createOrder), then reused. If the cart or the address change, the next need
 * creates a new one, naming the earlier one as `replacesOrderId`: the server releases it (its stock and
 * gift-card money go back) rather than count it against the customer's unpaid orders (issue 9).
 * `drop()` forgets it (the server said it expired). The latest state is read through refs because
 * PayPal's buttons keep the callbacks they were first given.
 *
 * Issue 32: the applied discount code goes with the order as `discountCode`. Applying or removing one
 * once the order exists places it again at once (`placeWithCode`), so the order to pay carries it.
 */
export function useCheckoutOrder(
  items: readonly CartItem[],
  address: ShippingAddress | null,
  paymentMethod: PaymentMethod,
  discountCode: string | null = null,
) {
  const dispatch = useAppDispatch();
  const [createOrder] = useCreateOrderMutation();
  const signature = signatureOf(items, address, discountCode);
  const [current, setCurrent] = useState<Current | null>(null);
  const orderId = current?.signature === signature ? current.id : null;
  const { data: fetched, startedTimeStamp: fetchedAt, isFetching } = useGetOrderQuery(orderId ?? skipToken);
  const order = orderId ? (fetched?._id === orderId ? fetched : current?.created) : undefined;

  const currentRef = useRef<Current | null>(null);
  const pending = useRef<Promise<Order> | null>(null);
  const latest = useRef({ items, address, paymentMethod, discountCode, signature, order });
  useEffect(() => {
    latest.current = { items, address, paymentMethod, discountCode, signature, order };
  });

  /** Places the order of the latest cart and address, with `code` (by default the one applied). */
  async function create(code = latest.current.discountCode): Promise<Order> {
    const { items, address, paymentMethod } = latest.current;
    if (!address) throw new Error('Please fill out all the fields to continue.');
    const signature = signatureOf(items, address, code);
    const totals = checkoutTotals(items);
    const previous = currentRef.current;
    const lines = orderLines(items);
    const created = await createOrder({
      orderItems: items.map((i, index) => ({
        ...lines[index]!,
        itemName: i.name,
        itemPrice: i.price,
        displayImage: i.image,
      })),
      shippingAddress: address,
      paymentMethod,
      price: toDollars(totals.itemsCents),
      taxPrice: toDollars(totals.taxCents),
      shippingPrice: toDollars(totals.shippingCents),
      totalPrice: toDollars(totals.totalCents),
      replacesOrderId: previous?.id,
      // Left out without a code: the spec's body, priced exactly as before (decision 009).
      ...(code && { discountCode: code }),
    }).unwrap();
    dispatch(ordersApi.util.upsertQueryData('getOrder', created._id, created));
    const next = { id: created._id, signature, created };
    currentRef.current = next;
    setCurrent(next);
    return created;
  }

  /** The order of this attempt, created on the server the first time it is needed. */
  function ensureOrder(): Promise<Order> {
    const { signature, order } = latest.current;
    const known = currentRef.current;
    if (known && known.signature === signature) {
      return Promise.resolve(order?._id === known.id ? order : known.created);
    }
    pending.current ??= create().finally(() => {
      pending.current = null;
    });
    return pending.current;
  }

  /**
   * Issue 32: a discount code applied (or removed: null) after the order was placed. The order is
   * placed again with it, replacing the one placed without it (the server releases that one, and
   * gives its gift-card money back), so the order the shopper pays is priced with the code. Nothing to
   * do before the order exists: it is placed with the code when first needed. Resolves to the new
   * order, or null when there was none to replace; a refusal (the code is used up meanwhile) rejects
   * and leaves the earlier order as it was.
   */
  async function placeWithCode(code: string | null): Promise<Order | null> {
    // A placement under way (a payment's first need) finishes first; this one then replaces it.
    await pending.current?.catch(() => undefined);
    const known = currentRef.current;
    if (!known || !latest.current.address) return null;
    if (known.signature === signatureOf(latest.current.items, latest.current.address, code)) {
      return known.created;
    }
    const placing = create(code).finally(() => {
      if (pending.current === placing) pending.current = null;
    });
    pending.current = placing;
    return placing;
  }

  function drop() {
    currentRef.current = null;
    setCurrent(null);
  }

  /**
   * When the order shown was asked for (a read begun before a change may answer after it). While a
   * read is under way the order shown is an older one's, of unknown age.
   */
  const orderReadAt = fetched?._id === orderId && !isFetching ? fetchedAt : undefined;
  return { orderId, order, orderReadAt, ensureOrder, drop, placeWithCode };
}

export type CheckoutOrder = ReturnType<typeof useCheckoutOrder>;
