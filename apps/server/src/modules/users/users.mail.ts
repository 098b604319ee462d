import { escapeHtml } from '../../lib/html.js';
import { type NewMail, mailButton as button, mailPage as page, oneLine } from '../mail/mail.service.js';

/** Who a mail is about: the account's name as its owner wrote it (escaped in HTML, one line in text). */
export interface MailRecipient {
  name: string;
  email: string;
}

/** Who asked for a reset link: the customer (forgot password) or an admin (Manage Users). */
export type ResetRequester = 'customer' | 'admin';

/** The shop's pages a notice points to, under `base` (PUBLIC_URL or the request's own origin). */
const forgotPage = (base: string) => `${base}/forgot-password`;
const contactPage = (base: string) => `${base}/contact`;

/** The link `{base}/reset-password/{token}` (issue 11): the only place the token itself ever appears. */
export function resetLinkMail(
  user: MailRecipient,
  link: string,
  minutes: number,
  requestedBy: ResetRequester,
): NewMail {
  const name = oneLine(user.name);
  const why =
    requestedBy === 'admin'
      ? 'A Pixel Vault administrator sent you this link so you can choose a new password for your account.'
      : 'Someone (hopefully you) asked to reset the password of your Pixel Vault account.';
  const validity = `The link works once, for the next ${minutes} minutes.`;
  const ignore = 'If you did not ask for it, you can ignore this mail: your password stays as it is.';

  const text = [
    `Hello ${name},`,
    '',
    why,
    'Open this link to choose a new password:',
    '',
    link,
    '',
    validity,
    ignore,
    '',
    'Pixel Vault',
  ].join('\n');

  const html = page(`<h1>Reset your password</h1>
<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(why)}</p>
${button(link, 'Choose a new password')}
<p>Or copy this link into your browser:<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>${escapeHtml(validity)} ${escapeHtml(ignore)}</p>`);

  return { to: user.email, subject: 'Reset your Pixel Vault password', text, html };
}

/**
 * The notices both addresses get when an account's e-mail changes: the old one so its owner learns
 * of a change they did not make, the new one so a typo shows at once.
 */
export function emailChangedMails(
  user: { name: string },
  change: { from: string; to: string; passwordChanged: boolean },
  base: string,
): NewMail[] {
  const name = oneLine(user.name);
  const what = change.passwordChanged
    ? `The e-mail address of your Pixel Vault account was changed from ${change.from} to ${change.to}, and its password was changed too.`
    : `The e-mail address of your Pixel Vault account was changed from ${change.from} to ${change.to}.`;
  const notice = (to: string, after: string): NewMail => {
    const text = [`Hello ${name},`, '', what, '', after, '', 'Pixel Vault'].join('\n');
    const html = page(`<h1>Your e-mail address was changed</h1>
<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(what)}</p>
<p>${escapeHtml(after)}</p>`);
    return { to, subject: 'Your Pixel Vault e-mail address was changed', text, html };
  };
  return [
    notice(
      change.from,
      `You will no longer receive mail about this account here. If you did not make this change, please contact us right away: ${contactPage(base)}`,
    ),
    notice(
      change.to,
      `From now on you log in with this address. If you did not expect this mail, please contact us: ${contactPage(base)}`,
    ),
  ];
}

/** Sent when a password was changed on My Account or through a reset link. */
export function passwordChangedMail(user: MailRecipient, base: string): NewMail {
  const name = oneLine(user.name);
  const what =
    'The password of your Pixel Vault account was just changed, and every other session of the account was logged out.';
  const after = `If you did not make this change, choose a new password at ${forgotPage(base)} and contact us: ${contactPage(base)}`;
  const text = [`Hello ${name},`, '', what, '', after, '', 'Pixel Vault'].join('\n');
  const html = page(`<h1>Your password was changed</h1>
<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(what)}</p>
<p>${escapeHtml(after)}</p>`);
  return { to: user.email, subject: 'Your Pixel Vault password was changed', text, html };
}
