import {
  AddBalanceBody,
  BalanceResponse,
  CheckBalanceBody,
  CreateGiftCardBody,
  GiftCard,
  IdParams,
  MessageResponse,
  UseGiftCardBody,
  UseGiftCardResponse,
} from '@pixel-vault/shared';
import { z } from 'zod';
import { requireUser } from '../../lib/access.js';
import type { App } from '../../lib/http.js';
import type { GiftCardsService } from './giftcards.service.js';

export async function giftCardsRoutes(app: App, { giftCards }: { giftCards: GiftCardsService }) {
  app.post(
    '/api/giftcards/check-balance',
    { schema: { body: CheckBalanceBody, response: { 200: BalanceResponse } }, config: { access: 'user' } },
    async (request) =>
      giftCards.checkBalance({ user: requireUser(request), ip: request.ip }, request.body.code),
  );

  app.post(
    '/api/giftcards/use',
    { schema: { body: UseGiftCardBody, response: { 200: UseGiftCardResponse } }, config: { access: 'user' } },
    async (request) => giftCards.use({ user: requireUser(request), ip: request.ip }, request.body),
  );

  app.get(
    '/api/giftcards/admin/getall',
    { schema: { response: { 200: z.array(GiftCard) } }, config: { access: 'admin' } },
    async () => giftCards.list(),
  );

  app.post(
    '/api/giftcards/admin/create',
    { schema: { body: CreateGiftCardBody, response: { 201: GiftCard } }, config: { access: 'admin' } },
    async (request, reply) =>
      reply.code(201).send(await giftCards.create(requireUser(request), request.body)),
  );

  app.put(
    '/api/giftcards/admin/:id/add-balance',
    {
      schema: { params: IdParams, body: AddBalanceBody, response: { 200: GiftCard } },
      config: { access: 'admin' },
    },
    async (request) => giftCards.addBalance(requireUser(request), request.params.id, request.body),
  );

  app.delete(
    '/api/giftcards/admin/delete/:id',
    { schema: { params: IdParams, response: { 200: MessageResponse } }, config: { access: 'admin' } },
    async (request) => {
      await giftCards.remove(requireUser(request), request.params.id);
      return { message: 'Gift card deleted' };
    },
  );
}
