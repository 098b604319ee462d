import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_UNSUBSCRIBED_MESSAGE, type StockAlerts, variantTitle } from '@pixel-vault/shared';
import { queryRows } from '../../db/client.js';
import { escapeHtml } from '../../lib/html.js';
import { alertMailsTo, subscribeUser } from '../../test/alerts.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser, setStock } from '../../test/factories.js';
import { decodeQuotedPrintable, startSmtp } from '../../test/smtp.js';
import { oneLine } from '../mail/mail.service.js';
import { createSmtpTransport } from '../mail/mail.transport.js';
import { createMailWorker } from '../mail/mail.worker.js';
import { alertConfirmMail } from './alerts.mail.js';

/**
 * Issue 34: the alert mail is written by PostgreSQL (migration 0025), so its wording and escaping live
 * in SQL: pinned here, and the SQL helpers compared with the TypeScript ones the other mails use. The
 * mail as a real SMTP server receives it carries List-Unsubscribe (RFC 2369) and one-click (RFC 8058).
 */
let ctx: TestContext;
const BASE = 'https://shop.example';

beforeAll(async () => {
  ctx = await createTestContext({ env: { PUBLIC_URL: BASE }, app: { limits: NO_RATE_LIMITS } });
});
afterAll(() => ctx.close());

const TRICKY = [
  '',
  'Zelda II',
  `<script>alert("x")</script> & 'friends'`,
  'Tom & Jerry\'s "Big" <Adventure>',
  '  spaced\r\n\tout\u2028line\u2029  ',
  'Pokémon — édition 日本',
];

describe('the SQL the alert mail is written with', () => {
  it('escapes HTML and flattens lines exactly as the server does', async () => {
    for (const text of TRICKY) {
      const [row] = await queryRows<{ html: string; line: string }>(
        ctx.db,
        sql`select pv_escape_html(${text}) as html, pv_one_line(${text}) as line`,
      );
      expect(row?.html, text).toBe(escapeHtml(text));
      expect(row?.line, text).toBe(oneLine(text));
    }
  });

  it('titles a variant as packages/shared does', async () => {
    const options = [
      { name: 'Condition', values: ['Loose', 'Boxed'] },
      { name: 'Region', values: ['PAL', 'NTSC-U'] },
    ];
    const cases: [typeof options, Record<string, string>][] = [
      [options, { Region: 'PAL', Condition: 'Loose' }],
      [options, { Condition: 'Boxed' }],
      [options, { Condition: '', Region: 'NTSC-U' }],
      [[], {}],
      [options.slice(0, 1), { Condition: 'Loose', Other: 'ignored' }],
    ];
    for (const [productOptions, values] of cases) {
      const [row] = await queryRows<{ title: string }>(
        ctx.db,
        sql`select pv_variant_title(${JSON.stringify(productOptions)}::jsonb, ${JSON.stringify(values)}::jsonb) as title`,
      );
      expect(row?.title, JSON.stringify(values)).toBe(variantTitle(productOptions, values));
    }
  });

  it('words the mail once, in pv_stock_alert_mail', async () => {
    const name = `Zelda <II> & "Link's"`;
    const product = `${BASE}/shop/retro-games/product/p1?variant=v1`;
    const unsubscribe = `${BASE}/alerts/unsubscribe/abc`;
    const [mail] = await queryRows<{ subject: string; text_body: string; html_body: string }>(
      ctx.db,
      sql`select * from pv_stock_alert_mail(${name}, ${'Loose / PAL'}, ${product}, ${unsubscribe})`,
    );
    const item = `${name} (Loose / PAL)`;
    expect(mail?.subject).toBe(`Back in stock: ${item}`);
    expect(mail?.text_body).toBe(
      [
        'Hello,',
        '',
        `Good news: ${item} is back in stock at Pixel Vault.`,
        '',
        'Retro stock is often one of a kind, so it may not stay for long. See it here:',
        product,
        '',
        'You asked us to tell you once when it came back: this is that one mail.',
        '',
        'To stop all back-in-stock alerts to this address, open this link:',
        unsubscribe,
        '',
        'Pixel Vault',
      ].join('\n'),
    );
    const html = mail?.html_body ?? '';
    expect(html).toContain(`<strong>${escapeHtml(item)}</strong>`);
    expect(html).not.toContain('<II>');
    expect(html).toContain(`<a href="${escapeHtml(product)}">${escapeHtml(product)}</a>`);
    expect(html).toContain(`<a href="${escapeHtml(unsubscribe)}">unsubscribe</a>`);
    expect(html).toMatch(/^<!doctype html>\n<html>.*<\/html>$/s);

    // Without a variant title (a product sold in one form): the name alone.
    const [plain] = await queryRows<{ subject: string }>(
      ctx.db,
      sql`select subject from pv_stock_alert_mail(${'Tetris'}, ${''}, ${product}, ${unsubscribe})`,
    );
    expect(plain?.subject).toBe('Back in stock: Tetris');
  });

  it('the confirmation mail (written by the server) escapes the name and carries the link', () => {
    const mail = alertConfirmMail(
      'fan@example.com',
      { name: '<b>Mario</b>', variantTitle: 'Boxed' },
      `${BASE}/alerts/confirm/TOKEN`,
    );
    expect(mail.subject).toBe('Confirm your alert for <b>Mario</b> (Boxed)');
    expect(mail.text).toContain(`\n${BASE}/alerts/confirm/TOKEN\n`);
    expect(mail.text).toContain('The link works for 24 hours.');
    expect(mail.html).toContain('&lt;b&gt;Mario&lt;/b&gt; (Boxed)');
    expect(mail.html).not.toContain('<b>Mario</b>');
  });
});

describe('the alert mail over SMTP', () => {
  it('arrives with List-Unsubscribe and List-Unsubscribe-Post, and its one-click address works', async () => {
    const smtp = await startSmtp();
    try {
      const { auth, user } = await insertUser(ctx.db);
      const [p, q] = [
        await insertProduct(ctx.db, { name: 'Header Check', stock: 0 }),
        await insertProduct(ctx.db, { name: 'Header Check Too', stock: 0 }),
      ];
      await subscribeUser(ctx.app, auth, p.id);
      await subscribeUser(ctx.app, auth, q.id);
      await setStock(ctx.db, p.id, 1);
      const [queued] = await alertMailsTo(ctx.db, user.email, p.name);
      expect(queued).toBeDefined();

      const worker = createMailWorker({
        db: ctx.db,
        transport: createSmtpTransport(smtp.url, 'Pixel Vault <no-reply@pixelvault.local>'),
        log: pino({ level: 'silent' }),
      });
      const drained = await worker.drainOnce();
      expect(drained.sent).toBeGreaterThanOrEqual(1);
      const message = smtp.received.find((m) => m.to.includes(user.email));
      expect(message).toBeDefined();
      // Headers as the receiving server reads them: folded lines joined again.
      const raw = decodeQuotedPrintable(message?.raw ?? '');
      const headers = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
      const listUnsubscribe = /^List-Unsubscribe: <([^>]+)>\r?$/m.exec(headers)?.[1];
      expect(listUnsubscribe).toMatch(new RegExp(`^${BASE}/api/alerts/unsubscribe/[0-9a-f]{64}$`));
      expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
      expect(headers).toMatch(/^Subject: Back in stock: Header Check\r?$/m);
      expect(raw).toContain(`${BASE}/shop/retro-games/product/${p.id}?variant=${p.variantId}`);

      // What a mail client does with it: POST List-Unsubscribe=One-Click to that address.
      const oneClick = await ctx.app.inject({
        method: 'POST',
        url: new URL(listUnsubscribe!).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.statusCode).toBe(200);
      expect(oneClick.json()).toEqual({ message: ALERT_UNSUBSCRIBED_MESSAGE });
      const mine = await ctx.app.inject({ method: 'GET', url: '/api/alerts', headers: auth });
      expect(
        mine
          .json<StockAlerts>()
          .items.map((a) => [a.name, a.status])
          .sort(),
      ).toEqual(
        [
          ['Header Check', 'notified'],
          ['Header Check Too', 'cancelled'],
        ].sort(),
      );
      // Also as multipart (the other encoding RFC 8058 allows): the body is not read for anything.
      const form = new Response(new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }));
      const multipart = new FormData();
      multipart.append('List-Unsubscribe', 'One-Click');
      const multi = new Response(multipart);
      for (const body of [form, multi]) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: new URL(listUnsubscribe!).pathname,
          headers: { 'content-type': body.headers.get('content-type') ?? '' },
          payload: Buffer.from(await body.arrayBuffer()),
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    } finally {
      await smtp.close();
    }
  });
});
