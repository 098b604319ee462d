import {
  AdminAddUserBody,
  AdminUpdateUserBody,
  AdminUsersQuery,
  IdParams,
  LoginBody,
  MessageResponse,
  PublicUser,
  RegisterBody,
  UserInfo,
  listOrPage,
} from '@pixel-vault/shared';
import { requireUser } from '../../lib/access.js';
import type { App, RateLimit } from '../../lib/http.js';
import { rateLimit } from '../../lib/http.js';
import { type Limiter, budgetsFor } from '../../lib/limiter.js';
import { hashingBusy, hashingSaturated } from '../../lib/passwords.js';
import type { UsersService } from './users.service.js';

export interface UsersRoutesOptions {
  users: UsersService;
  limits: { login: RateLimit; loginAddress: RateLimit; register: RateLimit };
  limiter: Limiter;
}

const UsersList = listOrPage('users', PublicUser);

export async function usersRoutes(app: App, { users, limits, limiter }: UsersRoutesOptions) {
  const loginLimits = { perAccount: limits.login, perAddress: limits.loginAddress };

  app.post(
    '/api/users',
    {
      schema: { body: RegisterBody, response: { 201: UserInfo } },
      config: {
        access: 'public',
        rateLimit: rateLimit(limits.register, 'Too many accounts created. Please try again later.'),
      },
    },
    async (request, reply) => reply.code(201).send(await users.register(request.body)),
  );

  app.post(
    '/api/users/login',
    {
      schema: { body: LoginBody, response: { 200: UserInfo } },
      config: { access: 'public' },
    },
    // Failed logins are counted per address (any e-mail: one password sprayed over many accounts)
    // and per account (any address: one account guessed from many), in the database, and a refused
    // login is answered before any password hash is computed (issue 9). Good logins do not count.
    async (request) => {
      // Hashing is saturated (a flood from many addresses): refuse before touching the database.
      if (hashingSaturated()) throw hashingBusy();
      return limiter.guard(
        budgetsFor('login', loginLimits, { ip: request.ip, account: request.body.email }),
        'Too many login attempts. Please try again in 15 minutes.',
        () => users.login(request.body),
      );
    },
  );

  app.get(
    '/api/users/admin/users',
    {
      schema: { querystring: AdminUsersQuery, response: { 200: UsersList } },
      config: { access: 'admin' },
    },
    async (request) => users.adminList(request.query),
  );

  app.get(
    '/api/users/admin/user/:id',
    { schema: { params: IdParams, response: { 200: PublicUser } }, config: { access: 'admin' } },
    async (request) => users.adminGet(request.params.id),
  );

  app.put(
    '/api/users/admin/user/:id',
    {
      schema: { params: IdParams, body: AdminUpdateUserBody, response: { 200: PublicUser } },
      config: { access: 'admin' },
    },
    async (request) => users.adminUpdate(requireUser(request), request.params.id, request.body),
  );

  app.delete(
    '/api/users/admin/user/:id',
    { schema: { params: IdParams, response: { 200: MessageResponse } }, config: { access: 'admin' } },
    async (request) => {
      await users.adminDelete(requireUser(request), request.params.id);
      return { message: 'User deleted' };
    },
  );

  app.post(
    '/api/users/admin/add',
    { schema: { body: AdminAddUserBody, response: { 201: PublicUser } }, config: { access: 'admin' } },
    async (request, reply) => reply.code(201).send(await users.adminAdd(requireUser(request), request.body)),
  );
}
