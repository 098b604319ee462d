import { escapeHtml } from '../../lib/html.js';
import type { NewMail } from '../mail/mail.service.js';

export interface LowStockCrossing {
  productId: string;
  /** The product's name, with the variant's title when it has options (issue 31). */
  name: string;
  /** The variant's SKU: what the owner restocks. */
  sku: string;
  stock: number;
}

/**
 * The owner's "running low" mail (issue 15): one per variant (issue 31) each time an order takes its stock from
 * above the threshold to at or below it.
 */
export function lowStockMail(to: string, product: LowStockCrossing, threshold: number): NewMail {
  const left = product.stock === 0 ? 'is sold out' : `is down to ${product.stock} left`;
  const text = [
    `${product.name} ${left} (low stock: ${threshold} or fewer).`,
    '',
    `SKU: ${product.sku}`,
    `Product id: ${product.productId}`,
    'Restock it from the admin dashboard before customers find it sold out.',
    '',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: sans-serif">
<p><strong>${escapeHtml(product.name)}</strong> ${escapeHtml(left)} (low stock: ${threshold} or fewer).</p>
<p>SKU: ${escapeHtml(product.sku)}<br>
Product id: ${escapeHtml(product.productId)}<br>
Restock it from the admin dashboard before customers find it sold out.</p>
</body></html>
`;
  return { to, subject: `Low stock: ${product.name} (${product.stock} left)`, text, html };
}
