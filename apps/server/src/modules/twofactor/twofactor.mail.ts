import { escapeHtml } from '../../lib/html.js';
import { type NewMail, mailButton, mailPage, oneLine } from '../mail/mail.service.js';

/**
 * Issue 36: the account owner hears of every change to their second factor (sent to the account's own
 * address, verified or not: it is the account's security, like a password change).
 */
export type TwoFactorEvent = 'enabled' | 'disabled' | 'recovery-code-used' | 'admin-reset';

const accountPage = (base: string) => `${base}/profile`;
const contactPage = (base: string) => `${base}/contact`;

const WHAT: Record<TwoFactorEvent, { subject: string; line: (left: number) => string }> = {
  enabled: {
    subject: 'Two-factor sign-in is on',
    line: () =>
      'Two-factor sign-in was turned on for your Pixel Vault account. Signing in now asks for a code from your authenticator app. Keep your recovery codes somewhere safe.',
  },
  disabled: {
    subject: 'Two-factor sign-in was turned off',
    line: () =>
      'Two-factor sign-in was turned off for your Pixel Vault account. Signing in asks only for your password now.',
  },
  'recovery-code-used': {
    subject: 'A recovery code was used to sign in',
    line: (left) =>
      `Someone signed in to your Pixel Vault account with one of your recovery codes. ${left} of them ${left === 1 ? 'is' : 'are'} left; you can make a new set on My Account.`,
  },
  'admin-reset': {
    subject: 'Two-factor sign-in was reset by the shop',
    line: () =>
      'A Pixel Vault admin turned off two-factor sign-in for your account (for example after a lost phone). You can turn it on again on My Account.',
  },
};

export function twoFactorMail(
  user: { name: string },
  event: TwoFactorEvent,
  base: string,
  recoveryCodesLeft = 0,
): Omit<NewMail, 'to'> {
  const name = oneLine(user.name);
  const { subject, line } = WHAT[event];
  const what = line(recoveryCodesLeft);
  const after = `If this was not you, change your password and contact us right away: ${contactPage(base)}`;
  const text = [`Hello ${name},`, '', what, '', accountPage(base), '', after, '', 'Pixel Vault'].join('\n');
  const html = mailPage(`<h1>${escapeHtml(subject)}</h1>
<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(what)}</p>
${mailButton(accountPage(base), 'Open My Account')}
<p>${escapeHtml(after)}</p>`);
  return { subject: `Pixel Vault: ${subject}`, text, html };
}
