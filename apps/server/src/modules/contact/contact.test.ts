import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages, mailOutbox } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';

const send = (ctx: TestContext, payload: unknown, ip = '10.0.0.1') =>
  ctx.app.inject({ method: 'POST', url: '/api/contact', payload: payload as object, remoteAddress: ip });

describe('POST /api/contact', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { CONTACT_TO: 'support@pixelvault.example' } });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.db.delete(contactMessages);
    await ctx.db.delete(mailOutbox);
    ctx.mail.sent.length = 0;
  });

  it('stores the message, queues one mail to CONTACT_TO and answers 201 Message sent', async () => {
    const res = await send(ctx, {
      from_name: ' Ada <b>Lovelace</b> ',
      from_email: 'Ada@Example.com',
      message: 'Do you stock <script>alert(1)</script> & "engines"?',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Message sent' });

    const stored = await ctx.db.select().from(contactMessages);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      fromName: 'Ada <b>Lovelace</b>',
      fromEmail: 'ada@example.com',
      message: 'Do you stock <script>alert(1)</script> & "engines"?',
      ip: '10.0.0.1',
    });

    const queued = await ctx.db.select().from(mailOutbox);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      toAddress: 'support@pixelvault.example',
      replyTo: 'ada@example.com',
      subject: 'Contact form: Ada <b>Lovelace</b>',
      status: 'pending',
    });

    await ctx.mail.worker.drainOnce();
    expect(ctx.mail.sent).toHaveLength(1);
    const mail = ctx.mail.sent[0];
    expect(mail?.text).toContain('Name: Ada <b>Lovelace</b>');
    expect(mail?.text).toContain('Email: ada@example.com');
    expect(mail?.text).toContain('Do you stock <script>alert(1)</script> & "engines"?');
    expect(mail?.html).toContain('Ada &lt;b&gt;Lovelace&lt;/b&gt;');
    expect(mail?.html).toContain(
      'Do you stock &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;engines&quot;?',
    );
    expect(mail?.html).not.toContain('<script>');
    expect(mail?.html).not.toContain('<b>Lovelace');
  });

  it('keeps a name with line breaks out of the mail headers', async () => {
    await send(ctx, {
      from_name: 'Eve\r\nBcc: all@example.com',
      from_email: 'eve@example.com',
      message: 'hi',
    });
    const [queued] = await ctx.db.select().from(mailOutbox);
    expect(queued?.subject).toBe('Contact form: Eve Bcc: all@example.com');
  });

  let caseNumber = 0;
  it.each([
    ['no name', { from_email: 'a@example.com', message: 'hi' }, 'Name is required'],
    ['a blank name', { from_name: '  ', from_email: 'a@example.com', message: 'hi' }, 'Name is required'],
    ['no e-mail', { from_name: 'A', message: 'hi' }, 'Email is required'],
    [
      'a bad e-mail',
      { from_name: 'A', from_email: 'not an email', message: 'hi' },
      'Please enter a valid email address',
    ],
    ['an empty message', { from_name: 'A', from_email: 'a@example.com', message: '' }, 'Message is required'],
    [
      'a message over 5000 characters',
      { from_name: 'A', from_email: 'a@example.com', message: 'x'.repeat(5001) },
      'Message is at most 5000 characters',
    ],
    [
      'a name over 100 characters',
      { from_name: 'x'.repeat(101), from_email: 'a@example.com', message: 'hi' },
      'Name is at most 100 characters',
    ],
  ])('refuses %s with 400 and stores nothing', async (_label, payload, message) => {
    // Each case from its own address, so the per-address rate limit stays out of the way.
    caseNumber += 1;
    const res = await send(ctx, payload, `10.0.1.${caseNumber}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await ctx.db.select().from(contactMessages)).toHaveLength(0);
    expect(await ctx.db.select().from(mailOutbox)).toHaveLength(0);
  });
});

describe('contact rate limit', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('answers 429 after 5 messages from one address in 10 minutes', async () => {
    const payload = { from_name: 'Spammer', from_email: 'spam@example.com', message: 'buy now' };
    for (let i = 0; i < 5; i += 1) expect((await send(ctx, payload, '10.6.6.6')).statusCode).toBe(201);
    const blocked = await send(ctx, payload, '10.6.6.6');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      message: 'Too many messages. Please try again in a few minutes.',
      code: 'RATE_LIMITED',
    });
    expect((await send(ctx, payload, '10.7.7.7')).statusCode).toBe(201);
    expect(await ctx.db.select().from(contactMessages)).toHaveLength(6);
  });
});
