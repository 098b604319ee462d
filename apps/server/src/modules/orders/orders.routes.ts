import {
  AdminOrdersQuery,
  CreateOrderBody,
  DeliveryBody,
  IdParams,
  Order,
  listOrPage,
} from '@pixel-vault/shared';
import { z } from 'zod';
import { requireUser } from '../../lib/access.js';
import type { App } from '../../lib/http.js';
import type { OrdersService } from './orders.service.js';

const AdminOrdersList = listOrPage('orders', Order);

export async function ordersRoutes(app: App, { orders }: { orders: OrdersService }) {
  // Registered before /api/orders/:id (which a static path beats anyway) for readability.
  app.get(
    '/api/orders/admin/vieworders',
    {
      schema: { querystring: AdminOrdersQuery, response: { 200: AdminOrdersList } },
      config: { access: 'admin' },
    },
    async (request) => orders.adminList(request.query),
  );

  app.put(
    '/api/orders/:id/delivery',
    {
      schema: { params: IdParams, body: DeliveryBody, response: { 200: Order } },
      config: { access: 'admin' },
    },
    async (request) => orders.markDelivered(requireUser(request), request.params.id),
  );

  app.post(
    '/api/orders',
    { schema: { body: CreateOrderBody, response: { 201: Order } }, config: { access: 'user' } },
    async (request, reply) =>
      reply.code(201).send(await orders.place(requireUser(request), request.body, request.ip)),
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

  // PUT /api/orders/:id/payment lives with the payments module (payments.routes.ts): it moves gift-card
  // and PayPal money, which this module does not know.
}
