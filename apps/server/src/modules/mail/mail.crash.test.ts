import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/index.js';
import { type TestContext, createMemoryTransport, createTestContext } from '../../test/context.js';
import { startSmtp } from '../../test/smtp.js';
import { enqueueMail } from './mail.service.js';
import {
  type MailTransport,
  type OutgoingMail,
  createFileTransport,
  createSmtpTransport,
} from './mail.transport.js';
import { createMailWorker } from './mail.worker.js';

// Issue 9, hole 6: a crashed worker's mails come back within a minute, a live one keeps them, and a
// retry after a crash does not make a second copy where we can prevent it.

const log = pino({ level: 'silent' });
const FROM = 'Pixel Vault <no-reply@pixelvault.local>';
const T0 = new Date('2030-01-01T00:00:00Z');
const NOTHING = { sent: 0, retrying: 0, failed: 0 };

const at = (ms: number) => new Date(T0.getTime() + ms);

/**
 * Stands in for a worker that stops mid-send (kill -9, a hung connection): each send first runs
 * `before` (if given: the mail really goes out), then waits until `wake()`; `wake(error)` makes the
 * waiting sends fail. Mails in `failIds` are refused at once.
 */
function createStalledTransport(before?: MailTransport) {
  let wake: (error?: Error) => void = () => {};
  const gate = new Promise<void>((resolve, reject) => {
    wake = (error) => (error ? reject(error) : resolve());
  });
  gate.catch(() => {});
  const transport = {
    kind: 'memory' as const,
    started: [] as OutgoingMail[],
    failIds: new Set<string>(),
    async send(mail: OutgoingMail) {
      transport.started.push(mail);
      if (transport.failIds.has(mail.id)) throw new Error('refused');
      await before?.send(mail);
      await gate;
    },
    close() {},
    wake,
  };
  return transport;
}

describe('mail outbox after a crash', () => {
  let ctx: TestContext;
  let dir: string;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(async () => {
    await ctx.db.delete(mailOutbox);
    dir = mkdtempSync(path.join(tmpdir(), 'pv-mail-crash-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Queues `count` mails due just before T0, oldest first. */
  async function enqueueDue(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const id = await enqueueMail(ctx.db, {
        to: `user${i}@example.com`,
        subject: `Mail ${i}`,
        text: 'body',
      });
      await ctx.db
        .update(mailOutbox)
        .set({ nextAttemptAt: at(-(count - i) * 1000) })
        .where(eq(mailOutbox.id, id));
      ids.push(id);
    }
    return ids;
  }

  async function rows(ids: string[]) {
    const found = await ctx.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids));
    return ids.map((id) => found.find((row) => row.id === id));
  }

  it('sends the mails of a worker that died mid-batch once its 60 s lease has run out, not before', async () => {
    const ids = await enqueueDue(3);
    const dead = createStalledTransport();
    const crashed = createMailWorker({ db: ctx.db, transport: dead, log, now: () => T0 });
    const crashedDrain = crashed.drainOnce();
    await expect.poll(() => dead.started.length).toBe(1);

    let now = at(59_999);
    const transport = createMemoryTransport();
    const other = createMailWorker({ db: ctx.db, transport, log, now: () => now });
    expect(await other.drainOnce()).toEqual(NOTHING);

    now = at(60_000);
    expect(await other.drainOnce()).toEqual({ sent: 3, retrying: 0, failed: 0 });
    expect(transport.sent.map((m) => m.id).sort()).toEqual([...ids].sort());

    // Should the "dead" worker come back after all, its failure does not undo what was sent.
    dead.wake(new Error('connection reset'));
    await crashedDrain;
    for (const row of await rows(ids)) expect(row).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('keeps the claim of a worker that is still sending: no other worker takes those mails', async () => {
    const [refused = '', ...slowIds] = await enqueueDue(3);
    let now = T0;
    const slow = createStalledTransport();
    slow.failIds.add(refused);
    const busy = createMailWorker({ db: ctx.db, transport: slow, log, now: () => now, renewEveryMs: 10 });
    const busyDrain = busy.drainOnce();
    await expect.poll(() => slow.started.length).toBe(2);

    // Still sending the second mail 45 s later: the lease of what it holds is renewed, and only that.
    now = at(45_000);
    await expect
      .poll(async () => (await rows(slowIds)).map((row) => row?.nextAttemptAt.getTime()), { timeout: 3000 })
      .toEqual([at(105_000).getTime(), at(105_000).getTime()]);
    const [failed] = await rows([refused]);
    expect(failed?.nextAttemptAt).toEqual(at(30_000));

    // Past the first lease: another worker retries the refused mail but cannot take the other two.
    now = at(90_000);
    const transport = createMemoryTransport();
    const other = createMailWorker({ db: ctx.db, transport, log, now: () => now });
    expect(await other.drainOnce()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(transport.sent.map((m) => m.id)).toEqual([refused]);

    slow.wake();
    expect(await busyDrain).toEqual({ sent: 2, retrying: 1, failed: 0 });
    expect(slow.started.map((m) => m.id)).toEqual([refused, ...slowIds]);
    for (const row of await rows(slowIds)) expect(row).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('writes a mail the file transport sends twice as one file named by its id', async () => {
    const transport = createFileTransport(dir, FROM);
    const mail = {
      id: '0b5f9c1e-8f3a-4c2d-9e7b-6a1d2c3b4a5f',
      to: 'owner@shop.example',
      subject: 'Once only',
      text: 'Hello file',
      html: null,
      replyTo: null,
    };
    await transport.send(mail);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await transport.send(mail);
    expect(readdirSync(dir)).toEqual([`${mail.id}.eml`]);
  });

  it('leaves one .eml file when the worker died after writing it and before marking it sent', async () => {
    const [id] = await enqueueDue(1);
    const dead = createStalledTransport(createFileTransport(dir, FROM));
    const crashed = createMailWorker({ db: ctx.db, transport: dead, log, now: () => T0 });
    const crashedDrain = crashed.drainOnce();
    await expect.poll(() => dead.started.length).toBe(1);
    await expect.poll(() => readdirSync(dir).filter((f) => f.endsWith('.eml'))).toHaveLength(1);

    const retry = createMailWorker({
      db: ctx.db,
      transport: createFileTransport(dir, FROM),
      log,
      now: () => at(60_000),
    });
    expect(await retry.drainOnce()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(readdirSync(dir)).toEqual([`${id}.eml`]);
    dead.wake(new Error('gone'));
    await crashedDrain;
  });

  it('repeats the same Message-ID when an SMTP delivery is retried after a crash', async () => {
    const smtp = await startSmtp();
    try {
      const [id] = await enqueueDue(1);
      // The server accepted the mail, then the worker died before it could mark it sent.
      const dead = createStalledTransport(createSmtpTransport(smtp.url, FROM));
      const crashed = createMailWorker({ db: ctx.db, transport: dead, log, now: () => T0 });
      const crashedDrain = crashed.drainOnce();
      await expect.poll(() => smtp.received.length).toBe(1);

      const retry = createMailWorker({
        db: ctx.db,
        transport: createSmtpTransport(smtp.url, FROM),
        log,
        now: () => at(60_000),
      });
      expect(await retry.drainOnce()).toEqual({ sent: 1, retrying: 0, failed: 0 });
      expect(smtp.received).toHaveLength(2);
      for (const { raw } of smtp.received) expect(raw).toContain(`Message-ID: <${id}@pixelvault.mail>`);
      dead.wake(new Error('gone'));
      await crashedDrain;
    } finally {
      await smtp.close();
    }
  });
});
