import { VERIFY_TOKEN_HOURS } from '@pixel-vault/shared';
import { escapeHtml } from '../../lib/html.js';
import { type NewMail, mailButton as button, mailPage as page, oneLine } from '../mail/mail.service.js';

/**
 * Issue 36: the verification mail (the only mail an unverified address gets, with its own orders'),
 * and the notice the current address gets when a new one is asked for on My Account.
 */

const contactPage = (base: string) => `${base}/contact`;

/** The link `{base}/verify-email/{token}`: the only place the token itself ever appears. */
export function verifyLinkMail(
  user: { name: string },
  to: string,
  link: string,
  kind: 'account' | 'change',
): NewMail {
  const name = oneLine(user.name);
  const why =
    kind === 'change'
      ? 'You asked to use this address for your Pixel Vault account. It replaces the old one once you confirm it.'
      : 'Thank you for creating a Pixel Vault account. Please confirm that this address is yours.';
  const validity = `The link works once, for the next ${VERIFY_TOKEN_HOURS} hours.`;
  const ignore =
    kind === 'change'
      ? 'If you did not ask for it, you can ignore this mail: the account keeps its old address.'
      : 'If you did not create an account, you can ignore this mail.';
  const text = [
    `Hello ${name},`,
    '',
    why,
    'Open this link to confirm your e-mail address:',
    '',
    link,
    '',
    validity,
    ignore,
    '',
    'Pixel Vault',
  ].join('\n');
  const html = page(`<h1>Confirm your e-mail address</h1>
<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(why)}</p>
${button(link, 'Confirm my e-mail address')}
<p>Or copy this link into your browser:<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>${escapeHtml(validity)} ${escapeHtml(ignore)}</p>`);
  return { to, subject: 'Confirm your Pixel Vault e-mail address', text, html };
}

/** To the account's current address: a new one was asked for, and replaces it once confirmed. */
export function emailChangeRequestedMail(
  user: { name: string; email: string },
  newEmail: string,
  base: string,
): NewMail {
  const name = oneLine(user.name);
  const what = `Someone logged in to your Pixel Vault account asked to change its e-mail address to ${newEmail}. It changes once the link we sent to that address is opened.`;
  const after = `If you did not ask for this, change your password and contact us right away: ${contactPage(base)}`;
  const text = [`Hello ${name},`, '', what, '', after, '', 'Pixel Vault'].join('\n');
  const html = page(`<h1>A new e-mail address was asked for</h1>
<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(what)}</p>
<p>${escapeHtml(after)}</p>`);
  return { to: user.email, subject: 'Your Pixel Vault e-mail address is about to change', text, html };
}
