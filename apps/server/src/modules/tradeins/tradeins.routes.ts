import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AdminTradeInsQuery,
  BuylistQuery,
  BuylistResponse,
  CreateTradeInBody,
  IdParams,
  InspectTradeInBody,
  ShipTradeInBody,
  TradeIn,
  TradeInsPage,
} from '@pixel-vault/shared';
import type { Config } from '../../config.js';
import { requireUser } from '../../lib/access.js';
import type { App } from '../../lib/http.js';
import { siteBase } from '../../lib/urls.js';
import type { TradeInsService } from './tradeins.service.js';

export interface TradeInsRoutesOptions {
  tradeIns: TradeInsService;
  /** PUBLIC_URL, else the request's own origin, is where mailed links point (see siteBase). */
  config: Pick<Config, 'publicUrl' | 'port'>;
}

/** A move's body is optional: none, `{}` and `null` alike (anything else is ignored). */
const NoBody = z.unknown().optional();

/** Issue 35: trade-ins (docs/trade-ins.md). One service call per route. */
export async function tradeInsRoutes(app: App, { tradeIns, config }: TradeInsRoutesOptions) {
  const base = (request: FastifyRequest) => siteBase(request, config.publicUrl, config.port);
  const mine = {
    schema: { params: IdParams, body: NoBody, response: { 200: TradeIn } },
    config: { access: 'user' as const },
  };
  const admins = { ...mine, config: { access: 'admin' as const } };

  // What the shop buys, and the credit per variant: anyone may read it.
  app.get(
    '/api/tradeins/buylist',
    {
      schema: { querystring: BuylistQuery, response: { 200: BuylistResponse } },
      config: { access: 'public' },
    },
    async (request) => tradeIns.buylist(request.query),
  );

  app.post(
    '/api/tradeins',
    { schema: { body: CreateTradeInBody, response: { 201: TradeIn } }, config: { access: 'user' } },
    async (request, reply) =>
      reply.code(201).send(await tradeIns.quote(requireUser(request), request.body, base(request))),
  );

  app.get(
    '/api/tradeins',
    { schema: { response: { 200: z.array(TradeIn) } }, config: { access: 'user' } },
    async (request) => tradeIns.listMine(requireUser(request)),
  );

  app.get(
    '/api/tradeins/admin',
    {
      schema: { querystring: AdminTradeInsQuery, response: { 200: TradeInsPage } },
      config: { access: 'admin' },
    },
    async (request) => tradeIns.adminList(request.query),
  );

  app.get(
    '/api/tradeins/admin/:id',
    { schema: { params: IdParams, response: { 200: TradeIn } }, config: { access: 'admin' } },
    async (request) => tradeIns.adminGet(request.params.id),
  );

  app.get(
    '/api/tradeins/:id',
    { schema: { params: IdParams, response: { 200: TradeIn } }, config: { access: 'user' } },
    async (request) => tradeIns.getMine(requireUser(request), request.params.id),
  );

  app.post(
    '/api/tradeins/:id/ship',
    { ...mine, schema: { ...mine.schema, body: ShipTradeInBody.nullish() } },
    async (request) =>
      tradeIns.ship(requireUser(request), request.params.id, request.body ?? { trackingNumber: undefined }),
  );
  app.post('/api/tradeins/:id/cancel', mine, async (request) =>
    tradeIns.cancel(requireUser(request), request.params.id),
  );
  app.post('/api/tradeins/:id/accept', mine, async (request) =>
    tradeIns.accept(requireUser(request), request.params.id),
  );
  app.post('/api/tradeins/:id/decline', mine, async (request) =>
    tradeIns.decline(requireUser(request), request.params.id),
  );

  app.post('/api/tradeins/admin/:id/receive', admins, async (request) =>
    tradeIns.receive(requireUser(request), request.params.id),
  );
  app.post(
    '/api/tradeins/admin/:id/inspect',
    { ...admins, schema: { ...admins.schema, body: InspectTradeInBody } },
    async (request) => tradeIns.inspect(requireUser(request), request.params.id, request.body),
  );
}
