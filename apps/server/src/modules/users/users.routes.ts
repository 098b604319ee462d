import { LoginBody, RegisterBody, UserInfo } from '@pixel-vault/shared';
import type { App, RateLimit } from '../../lib/http.js';
import { rateLimit } from '../../lib/http.js';
import type { UsersService } from './users.service.js';

export interface UsersRoutesOptions {
  users: UsersService;
  limits: { login: RateLimit; register: RateLimit };
}

export async function usersRoutes(app: App, { users, limits }: UsersRoutesOptions) {
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
      config: {
        access: 'public',
        // Per IP and e-mail: slows guessing one account's password without locking its owner out
        // from another network.
        rateLimit: rateLimit(
          limits.login,
          'Too many login attempts. Please try again in 15 minutes.',
          (request) => `${request.ip}|${(request.body as LoginBody).email}`,
        ),
      },
    },
    async (request) => users.login(request.body),
  );
}
