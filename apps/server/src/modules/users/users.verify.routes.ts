import type { FastifyRequest } from 'fastify';
import { VerifyEmailBody, VerifyEmailResponse, VerifyResendResponse } from '@pixel-vault/shared';
import type { Config } from '../../config.js';
import { requireUser } from '../../lib/access.js';
import type { App, RateLimit } from '../../lib/http.js';
import { type Limiter, budgetsFor, rateLimited } from '../../lib/limiter.js';
import { siteBase } from '../../lib/urls.js';
import type { EmailVerification } from './users.verify.js';

export interface VerifyRoutesOptions {
  verification: EmailVerification;
  limits: {
    /** Verification mails asked for per account, from any address. */
    verifyResend: RateLimit;
    /** Verification mails asked for per address, whatever accounts ask. */
    verifyResendAddress: RateLimit;
    /** Failed verification links (used, expired, unknown) per address. */
    verifyEmailAddress: RateLimit;
  };
  limiter: Limiter;
  config: Pick<Config, 'publicUrl' | 'port'>;
}

/** Issue 36: opening a verification link, and asking for a new one (docs/verified-email.md). */
export async function verifyRoutes(app: App, { verification, limits, limiter, config }: VerifyRoutesOptions) {
  const base = (request: FastifyRequest) => siteBase(request, config.publicUrl, config.port);
  const resendLimits = { perAccount: limits.verifyResend, perAddress: limits.verifyResendAddress };

  app.post(
    '/api/users/verify',
    {
      schema: { body: VerifyEmailBody, response: { 200: VerifyEmailResponse } },
      config: { access: 'public' },
    },
    // A 256-bit token cannot be guessed; failed tries are counted per address all the same, as for
    // reset links. Anyone holding the link may open it: it proves the mailbox, not the session.
    async (request) =>
      limiter.guard(
        [{ key: `verify:addr:${request.ip}`, limit: limits.verifyEmailAddress }],
        'Too many verification attempts. Please try again later.',
        () => verification.verify(request.body.token, base(request)),
      ),
  );

  app.post(
    '/api/users/verify/resend',
    { schema: { response: { 200: VerifyResendResponse } }, config: { access: 'user' } },
    // Every request counts (each may send a mail), per account and per address, as a forgotten password.
    async (request) => {
      const user = requireUser(request);
      const taken = await limiter.take(
        budgetsFor('verify', resendLimits, { ip: request.ip, account: user.id }),
      );
      if (!taken.allowed) {
        throw rateLimited(
          'Too many verification mails asked for. Please try again later.',
          taken.retryAfterSeconds,
        );
      }
      return verification.resend(user, base(request));
    },
  );
}
