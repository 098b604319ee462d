import {
  AddBalanceBody,
  BalanceResponse,
  CheckBalanceBody,
  CreateGiftCardBody,
  GiftCard,
  IdParams,
  MessageResponse,
  RemoveGiftCardBody,
  RemoveGiftCardResponse,
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

  /**
   * Issue 30, beside the spec's calls: the caller takes a gift card off their own unpaid order, and the
   * money it held there goes back to the card. 200 `{ orderId, balance, released, amountDue, message }`
   * (dollars); repeating it moves nothing and answers 200 with `released: 0`. 404 for an unknown code
   * (counted as a wrong code) or someone else's order, 409 ORDER_PAID for a paid order, 409
   * GIFT_CARD_NOT_APPLIED for a card never applied to it, 409 ORDER_EXPIRED once its hold ran out.
   */
  app.post(
    '/api/giftcards/remove',
    {
      schema: { body: RemoveGiftCardBody, response: { 200: RemoveGiftCardResponse } },
      config: { access: 'user' },
    },
    async (request) =>
      giftCards.removeFromOrder({ user: requireUser(request), ip: request.ip }, request.body),
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
