import { ContactBody, MessageResponse } from '@pixel-vault/shared';
import type { App, RateLimit } from '../../lib/http.js';
import { rateLimit } from '../../lib/http.js';
import type { ContactService } from './contact.service.js';

export async function contactRoutes(
  app: App,
  { contact, limits }: { contact: ContactService; limits: { contact: RateLimit } },
) {
  app.post(
    '/api/contact',
    {
      schema: { body: ContactBody, response: { 201: MessageResponse } },
      config: {
        access: 'public',
        rateLimit: rateLimit(limits.contact, 'Too many messages. Please try again in a few minutes.'),
      },
    },
    async (request, reply) => {
      await contact.send(request.body, request.ip);
      return reply.code(201).send({ message: 'Message sent' });
    },
  );
}
