import { ALERT_CONFIRM_HOURS, nameWithVariant } from '@pixel-vault/shared';
import { escapeHtml } from '../../lib/html.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { type NewMail, mailButton as button, mailPage as page, oneLine } from '../mail/mail.service.js';

/**
 * Issue 34: what the alerts module mails itself: a visitor's confirmation link. (The alert mail is
 * written by PostgreSQL, in the transaction of the restock: its wording is pv_stock_alert_mail in
 * migration 0025, tested in alerts.mail.test.ts.)
 */

/** A confirmation token and its stored hash: lib/tokens.ts's, as password reset links use. */
export const newConfirmToken = newToken;
/** How confirmation and unsubscribe tokens are stored (the trigger hashes alike). */
export const hashAlertToken = hashToken;

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
  const html = page(`<h1>Confirm your back-in-stock alert</h1>
<p>Hello,</p>
<p>${escapeHtml(asked)}</p>
${button(link, 'Confirm the alert')}
<p>Or copy this link into your browser:<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>${escapeHtml(validity)} ${escapeHtml(ignore)}</p>`);
  return { to, subject: `Confirm your alert for ${what}`, text, html };
}
