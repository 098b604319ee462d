import type { ContactBody } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { contactMessages } from '../../db/schema/index.js';
import { escapeHtml } from '../../lib/html.js';
import { enqueueMail, oneLine } from '../mail/mail.service.js';
import type { Mailer } from '../mail/mail.worker.js';

export interface ContactService {
  send(input: ContactBody, ip: string | undefined): Promise<void>;
}

export function contactMail(input: ContactBody) {
  const name = oneLine(input.from_name);
  const text = [
    'New message from the Pixel Vault contact form.',
    '',
    `Name: ${name}`,
    `Email: ${input.from_email}`,
    '',
    'Message:',
    input.message,
    '',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: sans-serif">
<p>New message from the Pixel Vault contact form.</p>
<p><strong>Name:</strong> ${escapeHtml(name)}<br>
<strong>Email:</strong> ${escapeHtml(input.from_email)}</p>
<p><strong>Message:</strong></p>
<p style="white-space: pre-wrap">${escapeHtml(input.message)}</p>
</body></html>
`;
  return { subject: `Contact form: ${name}`, text, html };
}

export function createContactService({
  db,
  mailer,
  contactTo,
}: {
  db: Database;
  mailer: Mailer;
  contactTo: string;
}): ContactService {
  return {
    async send(input, ip) {
      // The message and its mail are stored together or not at all.
      await db.transaction(async (tx) => {
        await tx.insert(contactMessages).values({
          fromName: input.from_name,
          fromEmail: input.from_email,
          message: input.message,
          ip: ip ?? null,
        });
        await enqueueMail(tx, { to: contactTo, replyTo: input.from_email, ...contactMail(input) });
      });
      mailer.kick();
    },
  };
}
