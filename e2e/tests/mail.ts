import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from '@playwright/test';

/**
 * Without SMTP the shop writes every mail as `{outbox id}.eml` under DATA_DIR/mail
 * (apps/server/src/modules/mail/mail.transport.ts); playwright.config.ts sets DATA_DIR to E2E_DATA_DIR.
 */
function mailDir(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (see e2e/playwright.config.ts)');
  return join(dataDir, 'mail');
}

function decodeQuotedPrintable(body: string): string {
  const bytes = Buffer.from(
    body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

/** A raw message with each MIME part decoded (quoted-printable or base64), headers kept as they are. */
function decodeMail(raw: string): string {
  return raw
    .split(/\r?\n--[^\r\n]*\r?\n/)
    .map((part) => {
      const split = part.search(/\r?\n\r?\n/);
      if (split < 0) return part;
      const headers = part.slice(0, split);
      const body = part.slice(split).trim();
      const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
      if (encoding === 'quoted-printable') return `${headers}\n\n${decodeQuotedPrintable(body)}`;
      if (encoding === 'base64') return `${headers}\n\n${Buffer.from(body, 'base64').toString('utf8')}`;
      return part;
    })
    .join('\n');
}

/** Every mail written so far to `email`, decoded, newest first. */
export async function mailsTo(email: string): Promise<string[]> {
  const dir = mailDir();
  const files = await readdir(dir).catch(() => [] as string[]);
  const mails: { text: string; mtime: number }[] = [];
  for (const file of files.filter((f) => f.endsWith('.eml'))) {
    const raw = await readFile(join(dir, file), 'utf8').catch(() => '');
    const to = /^To:\s*(.*)$/im.exec(raw)?.[1] ?? '';
    if (!to.toLowerCase().includes(email.toLowerCase())) continue;
    const { mtimeMs } = await stat(join(dir, file));
    mails.push({ text: decodeMail(raw), mtime: mtimeMs });
  }
  return mails.sort((a, b) => b.mtime - a.mtime).map((m) => m.text);
}

/**
 * The reset link of the newest reset mail to `email`. The mail worker sends after the request has been
 * answered, so this waits for the file to appear.
 */
export async function waitForResetLink(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const mail of await mailsTo(email)) {
          link = /https?:\/\/[^\s"<>]+\/reset-password\/[A-Za-z0-9_-]{43}/.exec(mail)?.[0];
          if (link) return link;
        }
        return undefined;
      },
      {
        message: `a password reset mail to ${email} under ${mailDir()}`,
        timeout: 30_000,
        intervals: [250, 500, 1000],
      },
    )
    .toBeDefined();
  return link!;
}
