import type { Order, OrderEvent, OrderItem } from '@pixel-vault/shared';

let seq = 0;

function uuid(n: number): string {
  return `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;
}

export function makeOrderItem(overrides: Partial<OrderItem> = {}): OrderItem {
  seq += 1;
  return {
    _id: uuid(seq),
    itemName: `Ordered Game ${seq}`,
    itemQuantity: 1,
    itemPrice: 19.99,
    displayImage: `/uploads/ordered-${seq}.webp`,
    product: uuid(seq + 5000),
    variant: uuid(seq + 7000),
    variantTitle: '',
    ...overrides,
  };
}

/** An order as GET /api/orders/:id answers it: unpaid, one line of $45.20, total $59.97. */
export function makeOrder(overrides: Partial<Order> = {}): Order {
  seq += 1;
  return {
    _id: uuid(seq),
    orderNumber: 1000 + seq,
    user: { _id: uuid(seq + 9000), name: 'Ada Lovelace', email: 'ada@example.com' },
    createdAt: '2024-01-05T10:00:00.000Z',
    orderItems: [makeOrderItem({ itemName: 'Tetris', itemPrice: 45.2 })],
    shippingAddress: { address: '1 Main St', city: 'Sacramento', postalCode: '95814', country: 'USA' },
    price: 45.2,
    discountCode: null,
    discountPrice: 0,
    shippingPrice: 7.99,
    taxPrice: 6.78,
    totalPrice: 59.97,
    paymentMethod: 'paypal',
    isPaid: false,
    paidAt: null,
    isDelivered: false,
    deliveredAt: null,
    status: 'awaiting_payment',
    expiresAt: '2024-01-05T10:30:00.000Z',
    giftCardAmount: 0,
    amountDue: 59.97,
    paymentResult: null,
    refundedPrice: 0,
    ...overrides,
  };
}

/** The same order once paid. */
export function paid(order: Order, overrides: Partial<Order> = {}): Order {
  return {
    ...order,
    isPaid: true,
    paidAt: '2024-01-05T10:05:00.000Z',
    status: 'paid',
    amountDue: 0,
    expiresAt: null,
    ...overrides,
  };
}

/** One line of an order's timeline (issue 12): placed by the customer unless told otherwise. */
export function makeEvent(overrides: Partial<OrderEvent> = {}): OrderEvent {
  return {
    at: '2024-01-05T10:00:00.000Z',
    event: 'placed',
    by: 'customer',
    amount: null,
    note: null,
    ...overrides,
  };
}
