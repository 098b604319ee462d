import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  /** The outbox id: also the Message-ID, so a receiving server can spot a repeated delivery. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  replyTo: string | null;
  /** Extra headers as the outbox row keeps them (issue 34: List-Unsubscribe); see extraHeaders. */
  headers?: Record<string, string> | null;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'file' | 'memory';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Headers a mail may never set for itself: nodemailer writes them from the mail's own fields. */
const OWN_HEADERS = new Set([
  'bcc',
  'cc',
  'content-transfer-encoding',
  'content-type',
  'date',
  'from',
  'message-id',
  'mime-version',
  'reply-to',
  'return-path',
  'sender',
  'subject',
  'to',
]);

/**
 * The extra headers of an outbox row that are sent: plain names (letters, digits, dashes) other than
 * the ones the mail's fields make, string values on one line. Anything else is left out, so a row can
 * never add a recipient or start a header of its own with a line break.
 */
export function extraHeaders(headers: OutgoingMail['headers']): Record<string, string> {
  const sent: Record<string, string> = {};
  if (!headers || typeof headers !== 'object') return sent;
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[A-Za-z][A-Za-z0-9-]{0,75}$/.test(name) || OWN_HEADERS.has(name.toLowerCase())) continue;
    if (typeof value !== 'string' || /[\r\n\0]/.test(value) || value.length > 2000) continue;
    sent[name] = value;
  }
  return sent;
}

function toNodemailer(mail: OutgoingMail, from: string) {
  const headers = extraHeaders(mail.headers);
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    messageId: `<${mail.id}@pixelvault.mail>`,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

export function createSmtpTransport(url: string, from: string): MailTransport {
  // Bounded waits: a hung SMTP server fails the attempt instead of holding the worker's batch (whose
  // lease is renewed while it sends) forever.
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail(toNodemailer(mail, from));
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP the shop keeps every mail as an .eml file, so nothing is lost and each can be opened.
 * The file is named by the outbox id alone: a retry after a crash between writing it and marking the
 * mail sent replaces the file instead of delivering a second copy (issue 9, hole 6).
 */
export function createFileTransport(dir: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'file',
    async send(mail) {
      const info = await transporter.sendMail(toNodemailer(mail, from));
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${mail.id}.eml`);
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
    },
    close: () => transporter.close(),
  };
}

export function createMailTransport(config: {
  smtpUrl: string | undefined;
  mailDir: string;
  mailFrom: string;
}): MailTransport {
  return config.smtpUrl
    ? createSmtpTransport(config.smtpUrl, config.mailFrom)
    : createFileTransport(config.mailDir, config.mailFrom);
}
