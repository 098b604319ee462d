import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2 defaults are argon2id, 19 MiB, 2 passes, 1 lane: the OWASP recommendation.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no stored hash (unknown e-mail) it still verifies
 * against a dummy, so the answer takes the same time and cannot reveal which e-mails have accounts.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (storedHash === undefined) {
    dummyHash ??= hash('dummy password that matches nothing');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
