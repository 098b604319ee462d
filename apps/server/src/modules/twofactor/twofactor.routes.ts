import type { FastifyRequest } from 'fastify';
import {
  AdminResetTwoFactorParams,
  EnableTwoFactorBody,
  LoginTwoFactorBody,
  MessageResponse,
  RecoveryCodes,
  TwoFactorConfirmBody,
  TwoFactorSetup,
  TwoFactorStatus,
  UserInfo,
} from '@pixel-vault/shared';
import type { Config } from '../../config.js';
import { requireUser } from '../../lib/access.js';
import type { App, RateLimit } from '../../lib/http.js';
import { type Limiter, budgetsFor } from '../../lib/limiter.js';
import { hashingBusy, hashingSaturated } from '../../lib/passwords.js';
import { siteBase } from '../../lib/urls.js';
import type { UsersService } from '../users/users.service.js';
import type { AccountGuard, TwoFactorService } from './twofactor.service.js';

export interface TwoFactorRoutesOptions {
  twoFactor: TwoFactorService;
  /** For the second step of a login: the same answer as login's (users.service.ts). */
  users: Pick<UsersService, 'signIn'>;
  limits: { login: RateLimit; loginAddress: RateLimit };
  limiter: Limiter;
  config: Pick<Config, 'publicUrl' | 'port'>;
}

const TOO_MANY = 'Too many wrong codes. Please try again in 15 minutes.';

export async function twoFactorRoutes(
  app: App,
  { twoFactor, users, limits, limiter, config }: TwoFactorRoutesOptions,
) {
  const loginLimits = { perAccount: limits.login, perAddress: limits.loginAddress };
  const base = (request: FastifyRequest) => siteBase(request, config.publicUrl, config.port);
  /** Wrong passwords and codes spend the failed-login budgets of the account and the address. */
  const accountGuard =
    (request: FastifyRequest): AccountGuard =>
    (email, work) =>
      limiter.guard(budgetsFor('login', loginLimits, { ip: request.ip, account: email }), TOO_MANY, work);

  app.get(
    '/api/users/2fa',
    { schema: { response: { 200: TwoFactorStatus } }, config: { access: 'user' } },
    async (request) => twoFactor.status(requireUser(request)),
  );

  app.post(
    '/api/users/2fa/setup',
    { schema: { response: { 200: TwoFactorSetup } }, config: { access: 'user' } },
    async (request) => twoFactor.setup(requireUser(request)),
  );

  app.post(
    '/api/users/2fa/enable',
    { schema: { body: EnableTwoFactorBody, response: { 200: RecoveryCodes } }, config: { access: 'user' } },
    async (request) =>
      twoFactor.enable(requireUser(request), request.body.code, base(request), accountGuard(request)),
  );

  app.post(
    '/api/users/2fa/disable',
    {
      schema: { body: TwoFactorConfirmBody, response: { 200: MessageResponse } },
      config: { access: 'user' },
    },
    async (request) => {
      if (hashingSaturated()) throw hashingBusy();
      await twoFactor.disable(requireUser(request), request.body, base(request), accountGuard(request));
      return { message: 'Two-factor sign-in is off' };
    },
  );

  app.post(
    '/api/users/2fa/recovery-codes',
    { schema: { body: TwoFactorConfirmBody, response: { 200: RecoveryCodes } }, config: { access: 'user' } },
    async (request) => {
      if (hashingSaturated()) throw hashingBusy();
      return twoFactor.newRecoveryCodes(requireUser(request), request.body, accountGuard(request));
    },
  );

  app.post(
    '/api/users/login/2fa',
    { schema: { body: LoginTwoFactorBody, response: { 200: UserInfo } }, config: { access: 'public' } },
    // Failed tries spend the address's failed-login budget here, and the account's once the challenge
    // names it (in completeChallenge): a code cannot be guessed faster than a password.
    async (request) => {
      const client = { userAgent: request.headers['user-agent'], ip: request.ip };
      return limiter.guard(
        budgetsFor('login', loginLimits, { ip: request.ip }),
        'Too many login attempts. Please try again in 15 minutes.',
        async () => {
          const user = await twoFactor.completeChallenge(
            request.body.challenge,
            request.body.code,
            base(request),
            (email, work) =>
              limiter.guard([{ key: `login:acct:${email}`, limit: limits.login }], TOO_MANY, work),
          );
          return users.signIn(user, client);
        },
      );
    },
  );

  app.post(
    '/api/users/admin/user/:id/2fa/reset',
    {
      schema: { params: AdminResetTwoFactorParams, response: { 200: MessageResponse } },
      config: { access: 'admin' },
    },
    async (request) => {
      await twoFactor.adminReset(requireUser(request), request.params.id, base(request));
      return { message: 'Two-factor sign-in reset' };
    },
  );
}
