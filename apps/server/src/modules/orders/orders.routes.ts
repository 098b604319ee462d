import { CreateOrderBody, IdParams, Order, PaymentUpdateBody } from '@pixel-vault/shared';
import { z } from 'zod';
import { requireUser } from '../../lib/access.js';
import type { App } from '../../lib/http.js';
import type { OrdersService } from './orders.service.js';

export async function ordersRoutes(app: App, { orders }: { orders: OrdersService }) {
  app.post(
    '/api/orders',
    { schema: { body: CreateOrderBody, response: { 201: Order } }, config: { access: 'user' } },
    async (request, reply) => reply.code(201).send(await orders.place(requireUser(request), request.body)),
  );

  app.get(
    '/api/orders',
    { schema: { response: { 200: z.array(Order) } }, config: { access: 'user' } },
    async (request) => orders.listMine(requireUser(request)),
  );

  app.get(
    '/api/orders/:id',
    { schema: { params: IdParams, response: { 200: Order } }, config: { access: 'user' } },
    async (request) => orders.get(requireUser(request), request.params.id),
  );

  app.put(
    '/api/orders/:id/payment',
    {
      schema: { params: IdParams, body: PaymentUpdateBody, response: { 200: Order } },
      config: { access: 'user' },
    },
    async (request) => orders.confirmPayment(requireUser(request), request.params.id, request.body),
  );
}
