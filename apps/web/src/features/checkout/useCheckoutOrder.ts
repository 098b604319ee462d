import { useEffect, useRef, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { toDollars, type Order } from '@pixel-vault/shared';
import { useAppDispatch } from '../../app/hooks';
import type { CartItem, PaymentMethod, ShippingAddress } from '../../app/cartSlice';
import { ordersApi, useCreateOrderMutation, useGetOrderQuery } from '../../app/ordersApi';
import { checkoutTotals } from './checkoutTotals';

interface Current {
  id: string;
  signature: string;
  created: Order;
}

/** What the order was made from: another cart (issue 31: another tier too) or address needs another order. */
function signatureOf(items: readonly CartItem[], address: ShippingAddress | null): string {
  return JSON.stringify([items.map((i) => [i.product, i.variant ?? null, i.qty]), address]);
}

/**
 * One server order per checkout attempt (issue 3): created when the customer first needs it (applying
 * a gift card, PayPal's createOrder), then reused. If the cart or the address change, the next need
 * creates a new one, naming the earlier one as `replacesOrderId`: the server releases it (its stock and
 * gift-card money go back) rather than count it against the customer's unpaid orders (issue 9).
 * `drop()` forgets it (the server said it expired). The latest state is read through refs because
 * PayPal's buttons keep the callbacks they were first given.
 */
export function useCheckoutOrder(
  items: readonly CartItem[],
  address: ShippingAddress | null,
  paymentMethod: PaymentMethod,
) {
  const dispatch = useAppDispatch();
  const [createOrder] = useCreateOrderMutation();
  const signature = signatureOf(items, address);
  const [current, setCurrent] = useState<Current | null>(null);
  const orderId = current?.signature === signature ? current.id : null;
  const { data: fetched, startedTimeStamp: fetchedAt, isFetching } = useGetOrderQuery(orderId ?? skipToken);
  const order = orderId ? (fetched?._id === orderId ? fetched : current?.created) : undefined;

  const currentRef = useRef<Current | null>(null);
  const pending = useRef<Promise<Order> | null>(null);
  const latest = useRef({ items, address, paymentMethod, signature, order });
  useEffect(() => {
    latest.current = { items, address, paymentMethod, signature, order };
  });

  async function create(): Promise<Order> {
    const { items, address, paymentMethod, signature } = latest.current;
    if (!address) throw new Error('Please fill out all the fields to continue.');
    const totals = checkoutTotals(items);
    const previous = currentRef.current;
    const created = await createOrder({
      orderItems: items.map((i) => ({
        product: i.product,
        // Issue 31: the tier in the cart; a line without one is the product's default variant.
        ...(i.variant && { variant: i.variant }),
        itemQuantity: i.qty,
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

  function drop() {
    currentRef.current = null;
    setCurrent(null);
  }

  /**
   * When the order shown was asked for (a read begun before a change may answer after it). While a
   * read is under way the order shown is an older one's, of unknown age.
   */
  const orderReadAt = fetched?._id === orderId && !isFetching ? fetchedAt : undefined;
  return { orderId, order, orderReadAt, ensureOrder, drop };
}

export type CheckoutOrder = ReturnType<typeof useCheckoutOrder>;
