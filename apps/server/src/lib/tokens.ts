import { createHash, randomBytes } from 'node:crypto';

/**
 * Tokens mailed in links (password resets, alert confirmations, and later e-mail verification): 32
 * random bytes (256 bits) as base64url, kept in the database only as their SHA-256 in hex. A plain
 * hash is enough, unlike for passwords: the token is random, so there is nothing to guess from the
 * hash, and looking it up must be one index read.
 */
export interface NewToken {
  /** What the mail carries (43 characters), never stored. */
  token: string;
  tokenHash: string;
}

export function newToken(): NewToken {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

/** SHA-256 in hex, as stored (migration 0025's alert trigger hashes its unsubscribe tokens alike). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
