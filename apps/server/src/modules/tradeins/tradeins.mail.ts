import { formatCents, nameWithVariant } from '@pixel-vault/shared';
import type { TradeInItemRow } from '../../db/schema/index.js';
import { escapeHtml } from '../../lib/html.js';
import type { NewMail } from '../mail/mail.service.js';
import type { LockedTradeIn } from './tradeins.repo.js';

/**
 * Issue 35: the trade-in mails (docs/trade-ins.md), each written to the outbox in the transaction of
 * the step it reports: quoted, received, inspected, credited, returned, expired. Each links to the
 * trade-in's page, under the base the quote was asked from (PUBLIC_URL, else the request's origin).
 * Issue 36: queued only for an account whose address is verified (enqueueMailIfVerified); the
 * trade-in itself works the same, and its page shows every step.
 */

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** The short reference a person can read out and write on a parcel: the id's first 8 characters. */
export const tradeInRef = (id: string) => id.slice(0, 8).toUpperCase();

export const tradeInLink = (tradeIn: Pick<LockedTradeIn, 'id' | 'linkBase'>) =>
  `${tradeIn.linkBase}/tradeins/${tradeIn.id}`;

type Line = Pick<TradeInItemRow, 'productName' | 'options' | 'qty' | 'offeredCents'> &
  Partial<Pick<TradeInItemRow, 'outcome' | 'inspectedCents' | 'reason'>>;

const lineName = (line: Line) => nameWithVariant(line.productName, Object.values(line.options).join(' / '));

const quotedLine = (line: Line) =>
  `${lineName(line)}: ${line.qty} x ${formatCents(line.offeredCents)} = ${formatCents(line.qty * line.offeredCents)}`;

/** What inspection found for a line, as the customer reads it. */
function inspectedLine(line: Line): string {
  const what = `${lineName(line)} x ${line.qty}`;
  switch (line.outcome) {
    case 'lowered':
      return `${what}: ${formatCents(line.inspectedCents ?? 0)} each instead of ${formatCents(line.offeredCents)} (${line.reason ?? ''})`;
    case 'rejected':
      return `${what}: not accepted (${line.reason ?? ''}); we will send it back`;
    default:
      return `${what}: accepted at ${formatCents(line.offeredCents)} each`;
  }
}

/** A plain notice: greeting, paragraphs, an optional list, the link to the trade-in, the reference. */
function notice(
  tradeIn: LockedTradeIn,
  subject: string,
  heading: string,
  paragraphs: string[],
  lines: string[] = [],
  after: string[] = [],
): NewMail {
  const link = tradeInLink(tradeIn);
  const ref = `Trade-in ${tradeInRef(tradeIn.id)} (${tradeIn.id})`;
  const text = [
    `Hello ${tradeIn.customerName},`,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(lines.length > 0 ? [...lines.map((l) => `  ${l}`), ''] : []),
    ...after.flatMap((p) => [p, '']),
    `See your trade-in: ${link}`,
    ref,
    '',
    'Pixel Vault',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:Arial,sans-serif;color:#222">
<h1>${escapeHtml(heading)}</h1>
<p>Hello ${escapeHtml(tradeIn.customerName)},</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${lines.length > 0 ? `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` : ''}
${after.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(link)}">See your trade-in</a></p>
<p>${escapeHtml(ref)}</p>
<p>Pixel Vault</p>
</body></html>`;
  return {
    to: tradeIn.customerEmail,
    subject: `${subject} (trade-in ${tradeInRef(tradeIn.id)})`,
    text,
    html,
  };
}

export function quotedMail(tradeIn: LockedTradeIn, lines: Line[]): NewMail {
  return notice(
    tradeIn,
    `Your trade-in quote: ${formatCents(tradeIn.quotedCents)} store credit`,
    'Your trade-in quote',
    [`We offer ${formatCents(tradeIn.quotedCents)} in store credit for these items:`],
    lines.map(quotedLine),
    [
      `The quote holds until ${dateFormat.format(tradeIn.expiresAt)}. Pack the items with the packing slip from the trade-in page (it carries the reference ${tradeInRef(tradeIn.id)}), send them to us, and mark the trade-in as shipped.`,
      'Once they arrive we inspect each item; you get the credit as a gift card to spend in the shop.',
    ],
  );
}

export function receivedMail(tradeIn: LockedTradeIn): NewMail {
  return notice(tradeIn, 'We received your trade-in', 'We received your trade-in', [
    'Your items arrived. We will inspect them and write to you with the result.',
  ]);
}

/** After inspection when something differs from the quote: every line, with what changed and why. */
export function inspectedMail(tradeIn: LockedTradeIn, lines: Line[]): NewMail {
  const total = tradeIn.inspectedCents ?? 0;
  const nothing = total === 0 && lines.every((l) => l.outcome === 'rejected');
  return notice(
    tradeIn,
    nothing ? 'Your trade-in was inspected' : `Your trade-in was inspected: ${formatCents(total)} offered`,
    'Your trade-in was inspected',
    [
      nothing
        ? 'We inspected your items and cannot accept any of them:'
        : `We inspected your items. Our offer is now ${formatCents(total)} in store credit (the quote was ${formatCents(tradeIn.quotedCents)}):`,
    ],
    lines.map(inspectedLine),
    [
      nothing
        ? 'Open the trade-in page and choose Decline: we will send the items back to you.'
        : 'Open the trade-in page to accept the offer (the credit is yours at once) or decline it (we send the items back).',
    ],
  );
}

export function creditedMail(tradeIn: LockedTradeIn, creditedCents: number, code: string | null): NewMail {
  return notice(
    tradeIn,
    `Your trade-in credit: ${formatCents(creditedCents)}`,
    'Your store credit is ready',
    [
      code
        ? `We added ${formatCents(creditedCents)} to your store-credit gift card:`
        : 'Your trade-in is complete. Thank you!',
    ],
    code ? [`Gift card code: ${code}`] : [],
    code
      ? [
          'To spend it, choose Gift Card as the payment at checkout and enter this code. The same card collects the credit of your future trade-ins.',
          'Keep the code to yourself: whoever has it can spend the credit.',
        ]
      : [],
  );
}

export function returnedMail(tradeIn: LockedTradeIn, lines: Line[]): NewMail {
  return notice(
    tradeIn,
    'Your trade-in items are on their way back',
    'We are sending your items back',
    ['You declined our offer, so nothing was credited. We will send these items back to you:'],
    lines.map((l) => `${lineName(l)} x ${l.qty}`),
  );
}

export function expiredMail(tradeIn: LockedTradeIn): NewMail {
  return notice(tradeIn, 'Your trade-in quote expired', 'Your trade-in quote expired', [
    `Your quote of ${formatCents(tradeIn.quotedCents)} was not marked as shipped by ${dateFormat.format(tradeIn.expiresAt)}, so it has expired.`,
    'If you still want to sell us these items, ask for a new quote: prices follow our current buy list.',
  ]);
}
