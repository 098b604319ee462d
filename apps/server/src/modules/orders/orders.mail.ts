import { formatCents, nameWithVariant, orderNumberText } from '@pixel-vault/shared';
import type { OrderItemRow, OrderRow } from '../../db/schema/index.js';
import { escapeHtml } from '../../lib/html.js';
import type { NewMail } from '../mail/mail.service.js';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/**
 * The totals as the order was priced (issue 32): a code's discount on its own line, minus what it took
 * off the items, between the items and shipping; a code that took nothing off the items (free
 * shipping) is named beside the shipping it made free. Without a code, the lines of before, unchanged.
 */
function totalLines(order: OrderRow): [string, number][] {
  const code = order.discountCode;
  const discounted = code !== null && order.discountCents > 0;
  const freeShipping = code !== null && order.discountCents === 0 && order.shippingCents === 0;
  return [
    ['Items total', order.itemsCents],
    ...(discounted ? [[`Discount (${code})`, -order.discountCents] as [string, number]] : []),
    [freeShipping ? `Shipping (${code})` : 'Shipping', order.shippingCents],
    ['Tax', order.taxCents],
    ['Total', order.totalCents],
  ];
}

/**
 * The confirmation e-mail (spec section 7): order id, date, address, item table and totals; the order's
 * number (issue 30) in the subject and above its id.
 */
export function confirmationMail(order: OrderRow, items: OrderItemRow[], paidAt: Date): NewMail {
  const date = dateFormat.format(order.createdAt);
  const address = [order.shipAddress, order.shipCity, order.shipPostalCode, order.shipCountry];
  const totals = totalLines(order);

  const text = [
    `Hello ${order.customerName},`,
    '',
    `Thank you for your order at Pixel Vault. It was paid on ${dateFormat.format(paidAt)}.`,
    '',
    `Order: ${orderNumberText(order.number)}`,
    `Order ID: ${order.id}`,
    `Date: ${date}`,
    '',
    'Shipping address:',
    ...address.map((line) => `  ${line}`),
    '',
    'Items:',
    ...items.map(
      (item) =>
        `  ${nameWithVariant(item.name, item.variantTitle)}: ${item.quantity} x ${formatCents(item.unitPriceCents)} = ${formatCents(item.unitPriceCents * item.quantity)}`,
    ),
    '',
    ...totals.map(([label, cents]) => `${label}: ${formatCents(cents)}`),
    '',
    'Pixel Vault',
  ].join('\n');

  const cell = 'style="padding:4px 8px;border-bottom:1px solid #ddd"';
  const num = 'style="padding:4px 8px;border-bottom:1px solid #ddd;text-align:right"';
  const html = `<!doctype html>
<html><body style="font-family:Arial,sans-serif;color:#222">
<h1>Thank you for your order, ${escapeHtml(order.customerName)}!</h1>
<p><strong>Order:</strong> ${orderNumberText(order.number)}<br><strong>Order ID:</strong> ${escapeHtml(order.id)}<br><strong>Date:</strong> ${escapeHtml(date)}</p>
<h2>Shipping address</h2>
<p>${address.map((line) => escapeHtml(line)).join('<br>')}</p>
<h2>Items</h2>
<table style="border-collapse:collapse">
<thead><tr><th ${cell}>Item</th><th ${num}>Qty</th><th ${num}>Unit price</th><th ${num}>Line total</th></tr></thead>
<tbody>
${items
  .map(
    (item) =>
      `<tr><td ${cell}>${escapeHtml(item.name)}${item.variantTitle ? `<br><small style="color:#555">${escapeHtml(item.variantTitle)}</small>` : ''}</td><td ${num}>${item.quantity}</td><td ${num}>${formatCents(item.unitPriceCents)}</td><td ${num}>${formatCents(item.unitPriceCents * item.quantity)}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table>
<table style="margin-top:12px">
${totals.map(([label, cents]) => `<tr><td>${escapeHtml(label)}</td><td style="text-align:right">${formatCents(cents)}</td></tr>`).join('\n')}
</table>
<p>Pixel Vault</p>
</body></html>`;

  return {
    to: order.customerEmail,
    subject: `Your Pixel Vault order ${orderNumberText(order.number)}`,
    text,
    html,
  };
}

/** A short notice about an order: a greeting, a few paragraphs, the order's number and id. */
function orderNotice(
  order: OrderRow,
  subject: string,
  heading: string,
  paragraphs: string[],
  lines: string[] = [],
): NewMail {
  const text = [
    `Hello ${order.customerName},`,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(lines.length > 0 ? [...lines.map((l) => `  ${l}`), ''] : []),
    `Order: ${orderNumberText(order.number)} (${order.id})`,
    '',
    'Pixel Vault',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:Arial,sans-serif;color:#222">
<h1>${escapeHtml(heading)}</h1>
<p>Hello ${escapeHtml(order.customerName)},</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${lines.length > 0 ? `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` : ''}
<p><strong>Order:</strong> ${orderNumberText(order.number)} (${escapeHtml(order.id)})</p>
<p>Pixel Vault</p>
</body></html>`;
  return { to: order.customerEmail, subject: `${subject} ${orderNumberText(order.number)}`, text, html };
}

/** Where refunded money went, one line each: "$20.00 back to gift card ending 4F2K". */
export type RefundDestinations = string[];

/** Sent when an admin marks the order delivered (issue 12). */
export function deliveredMail(order: OrderRow, items: OrderItemRow[], at: Date): NewMail {
  return orderNotice(
    order,
    'Your Pixel Vault order was delivered:',
    'Your order was delivered',
    [`Your order was marked delivered on ${dateFormat.format(at)}. We hope you enjoy it!`],
    items.map((item) => `${nameWithVariant(item.name, item.variantTitle)} x ${item.quantity}`),
  );
}

/** Sent when the customer cancels (issue 12); `refunded` lists where paid money went back. */
export function cancelledMail(
  order: OrderRow,
  refundedCents: number,
  refunded: RefundDestinations,
  at: Date,
): NewMail {
  const paragraphs = [`Your order was cancelled on ${dateFormat.format(at)}, as you asked.`];
  paragraphs.push(
    refundedCents > 0
      ? `We refunded ${formatCents(refundedCents)}:`
      : refunded.length > 0
        ? 'The gift-card money held for it is back on your card:'
        : 'No money was taken for it.',
  );
  return orderNotice(
    order,
    'Your Pixel Vault order was cancelled:',
    'Your order was cancelled',
    paragraphs,
    refunded,
  );
}

/** Sent for an admin's refund, full or partial (issue 12). */
export function refundMail(
  order: OrderRow,
  amountCents: number,
  refunded: RefundDestinations,
  reason: string,
  at: Date,
): NewMail {
  return orderNotice(
    order,
    'A refund for your Pixel Vault order',
    `We refunded ${formatCents(amountCents)}`,
    [
      `On ${dateFormat.format(at)} we refunded ${formatCents(amountCents)} of your order (${formatCents(order.totalCents)} in total).`,
      `Reason: ${reason}`,
      'The money goes back to where it came from:',
    ],
    refunded,
  );
}
