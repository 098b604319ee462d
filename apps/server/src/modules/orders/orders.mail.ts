import { formatCents } from '@pixel-vault/shared';
import type { OrderItemRow, OrderRow } from '../../db/schema/index.js';
import { escapeHtml } from '../../lib/html.js';
import type { NewMail } from '../mail/mail.service.js';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** The confirmation e-mail (spec section 7): order id, date, address, item table and totals. */
export function confirmationMail(order: OrderRow, items: OrderItemRow[], paidAt: Date): NewMail {
  const date = dateFormat.format(order.createdAt);
  const address = [order.shipAddress, order.shipCity, order.shipPostalCode, order.shipCountry];
  const totals: [string, number][] = [
    ['Items total', order.itemsCents],
    ['Shipping', order.shippingCents],
    ['Tax', order.taxCents],
    ['Total', order.totalCents],
  ];

  const text = [
    `Hello ${order.customerName},`,
    '',
    `Thank you for your order at Pixel Vault. It was paid on ${dateFormat.format(paidAt)}.`,
    '',
    `Order: ${order.id}`,
    `Date: ${date}`,
    '',
    'Shipping address:',
    ...address.map((line) => `  ${line}`),
    '',
    'Items:',
    ...items.map(
      (item) =>
        `  ${item.name}: ${item.quantity} x ${formatCents(item.unitPriceCents)} = ${formatCents(item.unitPriceCents * item.quantity)}`,
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
<p><strong>Order:</strong> ${escapeHtml(order.id)}<br><strong>Date:</strong> ${escapeHtml(date)}</p>
<h2>Shipping address</h2>
<p>${address.map((line) => escapeHtml(line)).join('<br>')}</p>
<h2>Items</h2>
<table style="border-collapse:collapse">
<thead><tr><th ${cell}>Item</th><th ${num}>Qty</th><th ${num}>Unit price</th><th ${num}>Line total</th></tr></thead>
<tbody>
${items
  .map(
    (item) =>
      `<tr><td ${cell}>${escapeHtml(item.name)}</td><td ${num}>${item.quantity}</td><td ${num}>${formatCents(item.unitPriceCents)}</td><td ${num}>${formatCents(item.unitPriceCents * item.quantity)}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table>
<table style="margin-top:12px">
${totals.map(([label, cents]) => `<tr><td>${label}</td><td style="text-align:right">${formatCents(cents)}</td></tr>`).join('\n')}
</table>
<p>Pixel Vault</p>
</body></html>`;

  return { to: order.customerEmail, subject: `Your Pixel Vault order ${order.id}`, text, html };
}
