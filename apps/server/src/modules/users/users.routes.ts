import type { FastifyRequest } from 'fastify';
import {
  AdminAddUserBody,
  AdminUpdateUserBody,
  AdminUsersQuery,
  FORGOT_PASSWORD_MESSAGE,
  ForgotPasswordBody,
  IdParams,
  LoginBody,
  MessageResponse,
  ProfileUpdateAnswer,
  PublicUser,
  RegisterBody,
  ResetPasswordBody,
  TwoFactorChallenge,
  UpdateProfileBody,
  UserInfo,
  listOrPage,
} from '@pixel-vault/shared';
import type { Config } from '../../config.js';
import { requireUser } from '../../lib/access.js';
import type { App, RateLimit } from '../../lib/http.js';
import { type Limiter, budgetsFor, rateLimited } from '../../lib/limiter.js';
import { hashingBusy, hashingSaturated } from '../../lib/passwords.js';
import { siteBase } from '../../lib/urls.js';
import type { UsersService } from './users.service.js';

export interface UsersRoutesOptions {
  users: UsersService;
  limits: {
    login: RateLimit;
    loginAddress: RateLimit;
    register: RateLimit;
    forgotPassword: RateLimit;
    forgotPasswordAddress: RateLimit;
    resetPasswordAddress: RateLimit;
  };
  limiter: Limiter;
  /** PUBLIC_URL, else the request's own origin, is where mailed links point (see siteBase). */
  config: Pick<Config, 'publicUrl' | 'port'>;
}

const UsersList = listOrPage('users', PublicUser);

export async function usersRoutes(app: App, { users, limits, limiter, config }: UsersRoutesOptions) {
  const loginLimits = { perAccount: limits.login, perAddress: limits.loginAddress };
  const forgotLimits = { perAccount: limits.forgotPassword, perAddress: limits.forgotPasswordAddress };
  const base = (request: FastifyRequest) => siteBase(request, config.publicUrl, config.port);
  /** Who signs in, for the session their token belongs to (issue 36). */
  const client = (request: FastifyRequest) => ({ userAgent: request.headers['user-agent'], ip: request.ip });

  app.post(
    '/api/users',
    {
      schema: { body: RegisterBody, response: { 201: UserInfo } },
      config: { access: 'public' },
      // Before the body is read or checked: every attempt counts (in the database: all instances).
      onRequest: (request) =>
        limiter.spend(
          [{ key: `register:addr:${request.ip}`, limit: limits.register }],
          'Too many accounts created. Please try again later.',
        ),
    },
    async (request, reply) =>
      reply.code(201).send(await users.register(request.body, base(request), client(request))),
  );

  app.post(
    '/api/users/login',
    {
      // Issue 36: an account with two-factor sign-in gets a challenge, no token (modules/twofactor).
      schema: { body: LoginBody, response: { 200: UserInfo.or(TwoFactorChallenge) } },
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
        () => users.login(request.body, client(request)),
      );
    },
  );

  app.post(
    '/api/users/password/forgot',
    {
      schema: { body: ForgotPasswordBody, response: { 202: MessageResponse } },
      config: { access: 'public' },
    },
    // Every request counts, known e-mail or not (each may send a mail): per address, and per e-mail
    // so one inbox cannot be flooded from many addresses. The answer never tells whether it has an account.
    async (request, reply) => {
      const { email } = request.body;
      const taken = await limiter.take(
        budgetsFor('forgot', forgotLimits, { ip: request.ip, account: email }),
      );
      if (!taken.allowed) {
        throw rateLimited(
          'Too many password reset requests. Please try again later.',
          taken.retryAfterSeconds,
        );
      }
      await users.forgotPassword(email, base(request));
      return reply.code(202).send({ message: FORGOT_PASSWORD_MESSAGE });
    },
  );

  app.post(
    '/api/users/password/reset',
    {
      // Issue 36: a challenge, as login answers, for an account with two-factor sign-in.
      schema: { body: ResetPasswordBody, response: { 200: UserInfo.or(TwoFactorChallenge) } },
      config: { access: 'public' },
    },
    // A 256-bit token cannot be guessed, but every try may cost a hash: failed tries are counted per
    // address, and a saturated hashing queue refuses before any work, as login does.
    async (request) => {
      if (hashingSaturated()) throw hashingBusy();
      return limiter.guard(
        [{ key: `reset:addr:${request.ip}`, limit: limits.resetPasswordAddress }],
        'Too many password reset attempts. Please try again later.',
        () => users.resetPassword(request.body, base(request), client(request)),
      );
    },
  );

  app.get(
    '/api/users/profile',
    { schema: { response: { 200: PublicUser } }, config: { access: 'user' } },
    async (request) => users.profile(requireUser(request)),
  );

  app.put(
    '/api/users/profile',
    {
      schema: { body: UpdateProfileBody, response: { 200: ProfileUpdateAnswer } },
      config: { access: 'user' },
    },
    async (request) => {
      const { body } = request;
      if ((body.email !== undefined || body.newPassword !== undefined) && hashingSaturated()) {
        throw hashingBusy();
      }
      return users.updateProfile(requireUser(request), body, {
        base: base(request),
        client: client(request),
        // A wrong current password spends the same budgets as a failed login for that account.
        guardPassword: (email, check) =>
          limiter.guard(
            budgetsFor('login', loginLimits, { ip: request.ip, account: email }),
            'Too many wrong passwords. Please try again in 15 minutes.',
            check,
          ),
      });
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
    '/api/users/admin/user/:id/password-reset',
    { schema: { params: IdParams, response: { 202: MessageResponse } }, config: { access: 'admin' } },
    async (request, reply) => {
      await users.adminSendPasswordReset(requireUser(request), request.params.id, base(request));
      return reply.code(202).send({ message: 'Password reset link sent' });
    },
  );

  app.post(
    '/api/users/admin/add',
    { schema: { body: AdminAddUserBody, response: { 201: PublicUser } }, config: { access: 'admin' } },
    async (request, reply) => reply.code(201).send(await users.adminAdd(requireUser(request), request.body)),
  );
}
