import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the shop must read back (a 2FA seed to check codes, a webhook secret to sign) are kept
 * encrypted with AES-256-GCM under a key derived (HKDF-SHA256) from JWT_SECRET, so a copy of the
 * database alone (a backup, a dump) does not give them. Each use names its own `purpose` (HKDF info),
 * so each gets its own key: a box sealed for one purpose cannot be opened as another's. Changing
 * JWT_SECRET makes every kept secret unreadable (docs/two-factor.md, docs/integrations.md).
 * Stored as `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function createSecretBox(jwtSecret: string, purpose: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', jwtSecret, 'pixel-vault', purpose, 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return ['v1', iv, tag, body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined) {
        throw new Error('Unknown sealed secret format');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
