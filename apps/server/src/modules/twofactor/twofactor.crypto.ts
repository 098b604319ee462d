import { randomInt } from 'node:crypto';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@pixel-vault/shared';
import { generateSecret, generateURI, verify } from 'otplib';
import { type SecretBox, createSecretBox as createLabelledBox } from '../../lib/secret-box.js';
import { hashToken } from '../../lib/tokens.js';

/**
 * The pieces of two-factor sign-in that know no database (issue 36, docs/two-factor.md): TOTP codes
 * (otplib v13: RFC 6238, SHA-1, 6 digits, 30 s), the secret's encryption at rest, recovery codes.
 */

export const TOTP_ISSUER = 'Pixel Vault';

/**
 * A code of the current step or the one before is accepted (a code typed just as it changed), not two
 * steps back, and none from the future: `epochTolerance` is in seconds, [past, future].
 */
const TOLERANCE: [number, number] = [TOTP_PERIOD_SECONDS, 0];

export function newTotpSecret(): string {
  return generateSecret();
}

export function otpauthUrl(secret: string, email: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: email, secret });
}

/**
 * The time step `code` belongs to when it is right for `secret` at `now` (this step or the previous
 * one) and later than `lastStep` (a code is accepted once: replay refused); else null.
 */
export async function matchTotp(
  secret: string,
  code: string,
  now: Date,
  lastStep: number | null,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOLERANCE,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    ...(lastStep !== null ? { afterTimeStep: lastStep } : {}),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/**
 * The secret is kept sealed (lib/secret-box.ts) under the key of this purpose, so a copy of the
 * database alone does not give the codes. Changing JWT_SECRET makes every kept secret unreadable: those
 * accounts sign in with a recovery code (or an admin resets them).
 */
export type { SecretBox };

export function createSecretBox(jwtSecret: string): SecretBox {
  return createLabelledBox(jwtSecret, 'two-factor secret encryption v1');
}

const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz23456789';

/** A recovery code as shown: `abcde-fgh23` (10 characters from a-z and 2-9, about 51 bits). */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What is kept of a recovery code: the hash of its 10 characters (no dash, lower case). */
export function hashRecoveryCode(code: string): string {
  return hashToken(`recovery:${code.replace(/[\s-]+/g, '').toLowerCase()}`);
}
