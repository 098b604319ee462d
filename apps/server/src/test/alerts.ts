import { and, asc, eq, like } from 'drizzle-orm';
import { expect } from 'vitest';
import type { StockAlert } from '@pixel-vault/shared';
import type { Executor } from '../db/client.js';
import { type MailRow, mailOutbox } from '../db/schema/index.js';
import type { App } from '../lib/http.js';

// Helpers of the back-in-stock alert tests (modules/alerts, issue 34).

type Auth = { authorization: string };

export const ALERT_SUBJECT = 'Back in stock: ';

/** POST /api/alerts as a visitor (no `auth`) or a logged-in shopper. */
export function subscribe(app: App, payload: Record<string, unknown>, auth?: Auth, remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/alerts',
    payload,
    ...(auth ? { headers: auth } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** A logged-in shopper's alert for the variant (201), answered. */
export async function subscribeUser(
  app: App,
  auth: Auth,
  product: string,
  variant?: string,
): Promise<StockAlert> {
  const res = await subscribe(app, { product, ...(variant ? { variant } : {}) }, auth);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<StockAlert>();
}

/** Every mail queued to `to`, oldest first; only those whose subject starts with `subject` if given. */
export async function mailsTo(db: Executor, to: string, subject?: string): Promise<MailRow[]> {
  return db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, to), subject ? like(mailOutbox.subject, `${subject}%`) : undefined))
    .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id));
}

/** The alert mails (back in stock) queued to `to` naming `name`. */
export const alertMailsTo = (db: Executor, to: string, name = '') =>
  mailsTo(db, to, `${ALERT_SUBJECT}${name}`);

export function confirmTokenIn(mail: { textBody: string }): string {
  const token = /\/alerts\/confirm\/([A-Za-z0-9_-]{43})\b/.exec(mail.textBody)?.[1];
  if (!token) throw new Error(`No confirmation link in: ${mail.textBody}`);
  return token;
}

export function unsubscribeTokenIn(mail: { textBody: string }): string {
  const token = /\/alerts\/unsubscribe\/([0-9a-f]{64})\b/.exec(mail.textBody)?.[1];
  if (!token) throw new Error(`No unsubscribe link in: ${mail.textBody}`);
  return token;
}

export const confirm = (app: App, token: string, remoteAddress?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/alerts/confirm',
    payload: { token },
    ...(remoteAddress ? { remoteAddress } : {}),
  });

/**
 * A visitor's alert for the variant, through the API: subscribed (202), and confirmed from the link
 * of the mail it got unless `confirmed` is false. Answers the confirmation token.
 */
export async function visitorAlert(
  app: App,
  db: Executor,
  email: string,
  product: string,
  variant?: string,
  { confirmed = true }: { confirmed?: boolean } = {},
): Promise<string> {
  const res = await subscribe(app, { product, email, ...(variant ? { variant } : {}) });
  expect(res.statusCode, res.body).toBe(202);
  const mails = await mailsTo(db, email, 'Confirm your alert');
  const last = mails.at(-1);
  if (!last) throw new Error(`No confirmation mail to ${email}`);
  const token = confirmTokenIn(last);
  if (confirmed) {
    const done = await confirm(app, token);
    expect(done.statusCode, done.body).toBe(200);
  }
  return token;
}
