import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@pixel-vault/shared';
import { type TestContext, createTestContext } from '../../test/context.js';
import {
  TEST_ADDRESS,
  createDiscountCode,
  insertGiftCard,
  insertProduct,
  insertUser,
} from '../../test/factories.js';

/**
 * The confirmation mail's totals (spec section 7; issue 32): a discount code's line, the code beside
 * the shipping it made free, and without a code the very mail of before.
 */
let ctx: TestContext;
let admin: { authorization: string };
const now = new Date('2026-11-27T12:00:00Z');

beforeAll(async () => {
  ctx = await createTestContext({ app: { clock: () => now } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

const createCode = async (prefix: string, body: Record<string, unknown>) =>
  (await createDiscountCode(ctx.app, admin, body, prefix)).code;

/** A customer places the order (with the code, if any), pays it all with a gift card, and gets the mail. */
async function confirmationOf(lines: { priceCents: number; qty: number; name: string }[], code?: string) {
  const { auth, user } = await insertUser(ctx.db, { name: 'Ann' });
  const orderItems = [];
  for (const line of lines) {
    const p = await insertProduct(ctx.db, { name: line.name, priceCents: line.priceCents, stock: 10 });
    orderItems.push({ product: p.id, itemQuantity: line.qty });
  }
  const placed = await ctx.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: auth,
    payload: { orderItems, shippingAddress: TEST_ADDRESS, paymentMethod: 'paypal', discountCode: code },
  });
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json<Order>();
  const card = await insertGiftCard(ctx.db, { balanceCents: 100_000 });
  const paid = await ctx.app.inject({
    method: 'PUT',
    url: `/api/orders/${order._id}/payment`,
    headers: auth,
    payload: { payment_method: 'Gift Card', gift_card_code: card.code },
  });
  expect(paid.json<Order>().isPaid).toBe(true);
  await ctx.mail.worker.drainOnce();
  const mails = ctx.mail.sent.filter((m) => m.to === user.email);
  expect(mails).toHaveLength(1);
  return { order, mail: mails[0]! };
}

const row = (label: string, amount: string) =>
  `<tr><td>${label}</td><td style="text-align:right">${amount}</td></tr>`;

describe('confirmation mail totals', () => {
  it('is, for an order without a code, exactly the mail of before', async () => {
    const { order, mail } = await confirmationOf([{ name: 'Zelda II', priceCents: 1999, qty: 2 }]);
    expect(mail.text).toBe(
      [
        'Hello Ann,',
        '',
        'Thank you for your order at Pixel Vault. It was paid on November 27, 2026.',
        '',
        `Order: #${order.orderNumber}`,
        `Order ID: ${order._id}`,
        'Date: November 27, 2026',
        '',
        'Shipping address:',
        '  1 Test Street',
        '  Testville',
        '  12345',
        '  Testland',
        '',
        'Items:',
        '  Zelda II: 2 x $19.99 = $39.98',
        '',
        'Items total: $39.98',
        'Shipping: $7.99',
        'Tax: $6.00',
        'Total: $53.97',
        '',
        'Pixel Vault',
      ].join('\n'),
    );
    expect(mail.html).toContain(
      [
        '<table style="margin-top:12px">',
        row('Items total', '$39.98'),
        row('Shipping', '$7.99'),
        row('Tax', '$6.00'),
        row('Total', '$53.97'),
        '</table>',
      ].join('\n'),
    );
    expect(mail.text).not.toContain('Discount');
  });

  it('shows a discount line, minus what the code took off, between the items and shipping', async () => {
    const code = await createCode('MAILPCT', { kind: 'percentage', value: 10 });
    const { mail } = await confirmationOf([{ name: 'Metroid', priceCents: 2000, qty: 2 }], code);
    // $40.00 - 10% = $36.00; tax 15% of it $5.40; shipping $7.99: $49.39.
    expect(mail.text).toContain(
      [
        'Items total: $40.00',
        `Discount (${code}): -$4.00`,
        'Shipping: $7.99',
        'Tax: $5.40',
        'Total: $49.39',
      ].join('\n'),
    );
    expect(mail.html).toContain(
      [
        row('Items total', '$40.00'),
        row(`Discount (${code})`, '-$4.00'),
        row('Shipping', '$7.99'),
        row('Tax', '$5.40'),
        row('Total', '$49.39'),
      ].join('\n'),
    );
  });

  it('names a free-shipping code beside the shipping, with no discount line', async () => {
    const code = await createCode('MAILSHIP', { kind: 'free_shipping', value: 0 });
    const { mail } = await confirmationOf([{ name: 'Tetris', priceCents: 3000, qty: 1 }], code);
    expect(mail.text).toContain(
      ['Items total: $30.00', `Shipping (${code}): $0.00`, 'Tax: $4.50', 'Total: $34.50'].join('\n'),
    );
    expect(mail.text).not.toContain('Discount');
    expect(mail.html).toContain(row(`Shipping (${code})`, '$0.00'));
  });

  it('keeps plain shipping beside a fixed discount that still pays for shipping', async () => {
    const code = await createCode('MAILFIX', { kind: 'fixed', value: 5 });
    const { mail } = await confirmationOf(
      [
        { name: 'Catan', priceCents: 2500, qty: 1 },
        { name: 'Chess', priceCents: 1500, qty: 1 },
      ],
      code,
    );
    // $40.00 - $5.00 = $35.00; tax $5.25; shipping $7.99: $48.24.
    expect(mail.text).toContain(
      [
        'Items total: $40.00',
        `Discount (${code}): -$5.00`,
        'Shipping: $7.99',
        'Tax: $5.25',
        'Total: $48.24',
      ].join('\n'),
    );
  });

  it("lists the lines in byte order, as the order's own answer does (the gift card's statement reads them)", async () => {
    // Issue 28: paying with a gift card reads the lines with the card's lock, as JSON; the mail lists
    // them in itemsFor's order (name by byte: capitals first), whatever order they were placed in.
    const { order, mail } = await confirmationOf([
      { name: 'zelda', priceCents: 500, qty: 1 },
      { name: 'Zelda II', priceCents: 1999, qty: 2 },
      { name: 'Actraiser', priceCents: 1000, qty: 1 },
    ]);
    const listed = mail.text.split('\n').filter((l) => l.startsWith('  ') && l.includes(' x $'));
    expect(listed).toEqual([
      '  Actraiser: 1 x $10.00 = $10.00',
      '  Zelda II: 2 x $19.99 = $39.98',
      '  zelda: 1 x $5.00 = $5.00',
    ]);
    expect(order.orderItems.map((i) => i.itemName)).toEqual(['Actraiser', 'Zelda II', 'zelda']);
  });
});
