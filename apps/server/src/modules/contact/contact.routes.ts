import { ContactBody, MessageResponse } from '@pixel-vault/shared';
import type { App, RateLimit } from '../../lib/http.js';
import type { Limiter } from '../../lib/limiter.js';
import type { ContactService } from './contact.service.js';

export interface ContactRoutesOptions {
  contact: ContactService;
  limits: { contact: RateLimit };
  /** In the database, so every instance shares the count (issue 13). */
  limiter: Limiter;
}

export async function contactRoutes(app: App, { contact, limits, limiter }: ContactRoutesOptions) {
  app.post(
    '/api/contact',
    {
      schema: { body: ContactBody, response: { 201: MessageResponse } },
      config: { access: 'public' },
      // Before the body is read or checked: every message counts, sent or refused.
      onRequest: (request) =>
        limiter.spend(
          [{ key: `contact:addr:${request.ip}`, limit: limits.contact }],
          'Too many messages. Please try again in a few minutes.',
        ),
    },
    async (request, reply) => {
      await contact.send(request.body, request.ip);
      return reply.code(201).send({ message: 'Message sent' });
    },
  );
}
