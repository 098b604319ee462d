import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/index.js';
import { escapeHtml } from '../../lib/html.js';
import { type TestContext, createMemoryTransport, createTestContext } from '../../test/context.js';
import { decodeQuotedPrintable, startSmtp } from '../../test/smtp.js';
import { enqueueMail } from './mail.service.js';
import { createFileTransport, createSmtpTransport } from './mail.transport.js';
import { MAIL_MAX_ATTEMPTS, backoffMs, createMailWorker } from './mail.worker.js';

const log = pino({ level: 'silent' });
const FROM = 'Pixel Vault <no-reply@pixelvault.local>';

describe('mail outbox worker', () => {
  let ctx: TestContext;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    ctx = await createTestContext();
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp.close();
    await ctx.close();
  });
  beforeEach(async () => {
    await ctx.db.delete(mailOutbox);
    smtp.received.length = 0;
    smtp.state.rejectNext = 0;
  });

  it('sends a queued mail over SMTP with user text escaped in the HTML part', async () => {
    const userText = '<script>alert("hi")</script> & \'friends\'';
    const id = await enqueueMail(ctx.db, {
      to: 'owner@shop.example',
      subject: 'Hello from the shop',
      text: `Plain: ${userText}`,
      html: `<p>Said: ${escapeHtml(userText)}</p>`,
      replyTo: 'customer@example.com',
    });
    const worker = createMailWorker({ db: ctx.db, transport: createSmtpTransport(smtp.url, FROM), log });

    expect(await worker.drainOnce()).toEqual({ sent: 1, retrying: 0, failed: 0 });

    expect(smtp.received).toHaveLength(1);
    const [message] = smtp.received;
    expect(message?.to).toEqual(['owner@shop.example']);
    expect(message?.from).toBe('no-reply@pixelvault.local');
    const raw = decodeQuotedPrintable(message?.raw ?? '');
    expect(raw).toMatch(/^Subject: Hello from the shop\r?$/m);
    expect(raw).toMatch(/^To: owner@shop\.example\r?$/m);
    expect(raw).toMatch(/^Reply-To: customer@example\.com\r?$/m);
    expect(raw).toContain(`Message-ID: <${id}@pixelvault.mail>`);
    expect(raw).toContain(`Plain: ${userText}`);
    expect(raw).toContain(
      '<p>Said: &lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &amp; &#39;friends&#39;</p>',
    );
    expect(raw).not.toContain('<p>Said: <script>');

    const [row] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(row?.sentAt).toBeInstanceOf(Date);

    // Sent is final: draining again sends nothing.
    expect(await worker.drainOnce()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  it('sends the extra headers a row keeps, never one that would name a recipient or break a line', async () => {
    // Written as the database would hold anything (the alert trigger writes this column from SQL).
    const [row] = await ctx.db
      .insert(mailOutbox)
      .values({
        toAddress: 'fan@example.com',
        subject: 'With headers',
        textBody: 'body',
        headers: {
          'List-Unsubscribe': '<https://shop.example/api/alerts/unsubscribe/abc>',
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          Bcc: 'spy@example.com',
          'X-Broken': 'a\r\nBcc: spy@example.com',
          'Bad Name': 'x',
          'X-Number': 12 as unknown as string,
        },
      })
      .returning({ id: mailOutbox.id });
    const worker = createMailWorker({ db: ctx.db, transport: createSmtpTransport(smtp.url, FROM), log });
    expect(await worker.drainOnce()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    const [message] = smtp.received;
    expect(message?.to).toEqual(['fan@example.com']);
    const raw = message?.raw ?? '';
    const headers = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
    expect(headers).toMatch(
      /^List-Unsubscribe: <https:\/\/shop\.example\/api\/alerts\/unsubscribe\/abc>\r?$/m,
    );
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(headers).toContain(`Message-ID: <${row?.id}@pixelvault.mail>`);
    expect(raw).not.toContain('spy@example.com');
    expect(headers).not.toMatch(/^(Bcc|X-Broken|Bad Name|X-Number):/im);
  });

  it('retries with a backoff after the SMTP server refuses, then delivers exactly once', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const id = await enqueueMail(ctx.db, { to: 'a@example.com', subject: 'Retry me', text: 'body' });
    await ctx.db.update(mailOutbox).set({ nextAttemptAt: now }).where(eq(mailOutbox.id, id));
    const worker = createMailWorker({
      db: ctx.db,
      transport: createSmtpTransport(smtp.url, FROM),
      log,
      now: () => now,
    });

    smtp.state.rejectNext = 1;
    expect(await worker.drainOnce()).toEqual({ sent: 0, retrying: 1, failed: 0 });
    const [failed] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed?.lastError).toMatch(/try later/);
    expect(failed?.nextAttemptAt.getTime()).toBe(now.getTime() + 30_000);

    // Not due yet.
    now = new Date(now.getTime() + 29_000);
    expect(await worker.drainOnce()).toEqual({ sent: 0, retrying: 0, failed: 0 });

    now = new Date(now.getTime() + 1_000);
    expect(await worker.drainOnce()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    const [sent] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });

  it('backs off exponentially and gives up after 8 attempts', async () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(backoffMs(30)).toBe(60 * 60_000);

    let now = new Date('2030-01-01T00:00:00Z');
    const transport = createMemoryTransport();
    transport.failNext = 100;
    const worker = createMailWorker({ db: ctx.db, transport, log, now: () => now });
    const id = await enqueueMail(ctx.db, { to: 'a@example.com', subject: 'Doomed', text: 'body' });
    await ctx.db.update(mailOutbox).set({ nextAttemptAt: now }).where(eq(mailOutbox.id, id));

    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt += 1) {
      const result = await worker.drainOnce();
      expect(result).toEqual(
        attempt < MAIL_MAX_ATTEMPTS
          ? { sent: 0, retrying: 1, failed: 0 }
          : { sent: 0, retrying: 0, failed: 1 },
      );
      now = new Date(now.getTime() + 2 * 60 * 60_000);
    }
    const [row] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS });
    expect(await worker.drainOnce()).toEqual({ sent: 0, retrying: 0, failed: 0 });
  });

  it('never sends a mail twice when two workers drain at the same time', async () => {
    for (let i = 0; i < 25; i += 1) {
      await enqueueMail(ctx.db, { to: `user${i}@example.com`, subject: `Mail ${i}`, text: 'body' });
    }
    const transport = createMemoryTransport();
    const a = createMailWorker({ db: ctx.db, transport, log });
    const b = createMailWorker({ db: ctx.db, transport, log });
    for (let round = 0; round < 3; round += 1) await Promise.all([a.drainOnce(), b.drainOnce()]);
    const ids = transport.sent.map((m) => m.id);
    expect(ids).toHaveLength(25);
    expect(new Set(ids).size).toBe(25);
  });

  it('sends in batches of 10, oldest first', async () => {
    for (let i = 0; i < 12; i += 1)
      await enqueueMail(ctx.db, { to: 'a@example.com', subject: `M${i}`, text: 'b' });
    const transport = createMemoryTransport();
    const worker = createMailWorker({ db: ctx.db, transport, log });
    expect((await worker.drainOnce()).sent).toBe(10);
    expect((await worker.drainOnce()).sent).toBe(2);
  });

  it('sends a mail queued in the same millisecond as the claim, and oldest first to the microsecond', async () => {
    // A Date has whole milliseconds, the database microseconds: both mails were queued within the
    // millisecond the worker reads from its clock, the second one's id sorting first.
    const [first, second] = ['ffffffff-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    for (const [id, micros] of [
      [first, '000300'],
      [second, '000700'],
    ] as const) {
      await ctx.db.insert(mailOutbox).values({
        id,
        toAddress: 'same-ms@example.com',
        subject: id,
        textBody: 'b',
        htmlBody: '<p>b</p>',
      });
      await ctx.db.execute(
        sql`update mail_outbox set created_at = ${`2026-11-26 10:00:00.${micros}+00`}::timestamptz,
              next_attempt_at = ${`2026-11-26 10:00:00.${micros}+00`}::timestamptz where id = ${id}::uuid`,
      );
    }
    const transport = createMemoryTransport();
    const worker = createMailWorker({
      db: ctx.db,
      transport,
      log,
      now: () => new Date('2026-11-26T10:00:00.000Z'),
    });
    expect(await worker.drainOnce()).toMatchObject({ sent: 2 });
    expect(transport.sent.map((m) => m.id)).toEqual([first, second]);
  });

  it('sends a queued mail soon after kick() once started, and stops cleanly', async () => {
    const transport = createMemoryTransport();
    const worker = createMailWorker({ db: ctx.db, transport, log, pollMs: 60_000 });
    worker.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await enqueueMail(ctx.db, { to: 'a@example.com', subject: 'Kicked', text: 'b' });
      worker.kick();
      await expect.poll(() => transport.sent.length, { timeout: 5000 }).toBe(1);
    } finally {
      await worker.stop();
    }
  });

  it('does not queue the mail when the surrounding transaction rolls back', async () => {
    await expect(
      ctx.db.transaction(async (tx) => {
        await enqueueMail(tx, { to: 'a@example.com', subject: 'Never', text: 'b' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await ctx.db.select().from(mailOutbox)).toHaveLength(0);
  });

  it('keeps header values on one line', async () => {
    const id = await enqueueMail(ctx.db, {
      to: 'a@example.com',
      subject: 'Hi\r\nBcc: victim@example.com',
      text: 'b',
    });
    const [row] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row?.subject).toBe('Hi Bcc: victim@example.com');
  });
});

describe('file mail transport (no SMTP_URL)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pv-mail-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes each mail as an .eml file named by its outbox id', async () => {
    const transport = createFileTransport(path.join(dir, 'mail'), FROM);
    const id = '0b5f9c1e-8f3a-4c2d-9e7b-6a1d2c3b4a5f';
    await transport.send({
      id,
      to: 'owner@shop.example',
      subject: 'Kept on disk',
      text: 'Hello file',
      html: '<p>Hello &amp; file</p>',
      replyTo: null,
    });
    const files = readdirSync(path.join(dir, 'mail'));
    expect(files).toEqual([`${id}.eml`]);
    const eml = readFileSync(path.join(dir, 'mail', files[0] ?? ''), 'utf8');
    expect(eml).toMatch(/^Subject: Kept on disk$/m);
    expect(eml).toMatch(/^To: owner@shop\.example$/m);
    expect(eml).toMatch(/^From: Pixel Vault <no-reply@pixelvault\.local>$/m);
    expect(eml).toContain('Hello file');
  });
});
