import {
  CheckDiscountBody,
  CheckDiscountResponse,
  CreatePromotionBody,
  IdParams,
  Promotion,
  UpdatePromotionBody,
} from '@pixel-vault/shared';
import { z } from 'zod';
import { requireUser } from '../../lib/access.js';
import type { App } from '../../lib/http.js';
import type { PromotionsService } from './promotions.service.js';

export interface PromotionsRoutesOptions {
  promotions: PromotionsService;
  /** The cart priced with a code (the orders module prices carts: orders.quote.ts). */
  quote: (
    caller: { user: ReturnType<typeof requireUser>; ip: string },
    body: CheckDiscountBody,
  ) => Promise<CheckDiscountResponse>;
}

/** Issue 32: discount codes, beside the spec's calls. */
export async function promotionsRoutes(app: App, { promotions, quote }: PromotionsRoutesOptions) {
  /**
   * The checkout's Apply: 200 the cart priced with the code, or the refusal placing the order would
   * get (400, or 409 for a used-up limit). An unknown code counts against the caller's wrong-code budget.
   */
  app.post(
    '/api/promotions/check',
    {
      schema: { body: CheckDiscountBody, response: { 200: CheckDiscountResponse } },
      config: { access: 'user' },
    },
    async (request) => quote({ user: requireUser(request), ip: request.ip }, request.body),
  );

  app.get(
    '/api/promotions/admin',
    { schema: { response: { 200: z.array(Promotion) } }, config: { access: 'admin' } },
    async () => promotions.list(),
  );

  app.post(
    '/api/promotions/admin',
    { schema: { body: CreatePromotionBody, response: { 201: Promotion } }, config: { access: 'admin' } },
    async (request, reply) =>
      reply.code(201).send(await promotions.create(requireUser(request), request.body)),
  );

  app.put(
    '/api/promotions/admin/:id',
    {
      schema: { params: IdParams, body: UpdatePromotionBody, response: { 200: Promotion } },
      config: { access: 'admin' },
    },
    async (request) => promotions.update(requireUser(request), request.params.id, request.body),
  );

  /** Deactivates (a code on orders is never erased); answers the code as it is now. */
  app.delete(
    '/api/promotions/admin/:id',
    { schema: { params: IdParams, response: { 200: Promotion } }, config: { access: 'admin' } },
    async (request) => promotions.deactivate(requireUser(request), request.params.id),
  );
}
