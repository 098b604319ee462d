import { createHash, randomBytes } from 'node:crypto';
import { ALERT_CONFIRM_HOURS, nameWithVariant } from '@pixel-vault/shared';
import { escapeHtml } from '../../lib/html.js';
import { type NewMail, oneLine } from '../mail/mail.service.js';

/**
 * Issue 34: what the alerts module mails itself: a visitor's confirmation link. (The alert mail is
 * written by PostgreSQL, in the transaction of the restock: its wording is pv_stock_alert_mail in
 * migration 0025, tested in alerts.mail.test.ts.)
 */

/**
 * A confirmation token: 32 random bytes mailed as base64url, kept only as its SHA-256, as password
 * reset tokens are (users.reset.ts): random, so a plain hash is enough, and a lookup is one index read.
 */
export function newConfirmToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashAlertToken(token) };
}

/** SHA-256 in hex: how confirmation and unsubscribe tokens are stored (the trigger hashes alike). */
export function hashAlertToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The page a confirmation link opens, under the shop's base; it sends POST /api/alerts/confirm. */
export const confirmLink = (base: string, token: string) => `${base}/alerts/confirm/${token}`;

/** What the mail names: the product, with its variant's title when it has options. */
export interface AlertItem {
  name: string;
  variantTitle: string;
}

export function alertConfirmMail(to: string, item: AlertItem, link: string): NewMail {
  const what = oneLine(nameWithVariant(item.name, item.variantTitle));
  const asked = `Someone (hopefully you) asked Pixel Vault to e-mail this address once, when ${what} is back in stock.`;
  const validity = `The link works for ${ALERT_CONFIRM_HOURS} hours.`;
  const ignore =
    'If you did not ask for it, ignore this mail: without the link confirmed, we will not write again.';
  const text = [
    'Hello,',
    '',
    asked,
    'Open this link to confirm the alert:',
    '',
    link,
    '',
    validity,
    ignore,
    '',
    'Pixel Vault',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:Arial,sans-serif;color:#222">
<h1>Confirm your back-in-stock alert</h1>
<p>Hello,</p>
<p>${escapeHtml(asked)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#222;color:#fff;text-decoration:none;border-radius:4px">Confirm the alert</a></p>
<p>Or copy this link into your browser:<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>${escapeHtml(validity)} ${escapeHtml(ignore)}</p>
<p>Pixel Vault</p>
</body></html>`;
  return { to, subject: `Confirm your alert for ${what}`, text, html };
}
