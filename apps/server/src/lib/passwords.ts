import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';
import { AppError } from './errors.js';

/**
 * Argon2 is deliberately slow CPU work (on libuv's thread pool). Left unbounded, a flood of logins
 * takes every core and every other customer waits (issue 9: a customer's order list went from
 * ~20 ms to ~700 ms under 60 wrong logins a second). At most cores - 1 hashes run at once, so one
 * core always serves everything else; a bounded queue waits behind them, and beyond it the caller
 * is told to come back (429) instead of piling up.
 */
const hashing = pLimit(Math.max(1, availableParallelism() - 1));
export const HASH_QUEUE_MAX = 64;

export const hashingBusy = () =>
  new AppError(429, 'Too many sign-ins right now. Please try again in a moment.', 'BUSY');

/** True while the queue is full: a caller can refuse before doing any other work (database reads). */
export const hashingSaturated = () => hashing.pendingCount >= HASH_QUEUE_MAX;

/**
 * While others wait, a finished hash keeps its slot for half as long again before the next starts: a
 * flood of logins then gets at most two thirds of a core for hashing, and the rest of that core stays
 * with everything else. The caller has its answer at once; only the next hash waits. Without a queue
 * nothing rests.
 */
const REST_RATIO = 0.5;

function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (hashingSaturated()) return Promise.reject(hashingBusy());
  return new Promise<T>((resolve, reject) => {
    void hashing(async () => {
      const started = performance.now();
      try {
        resolve(await work());
      } catch (error) {
        reject(error);
      }
      if (hashing.pendingCount > 0) {
        const rest = (performance.now() - started) * REST_RATIO;
        await new Promise((r) => setTimeout(r, rest));
      }
    });
  });
}

// @node-rs/argon2 defaults are argon2id, 19 MiB, 2 passes, 1 lane: the OWASP recommendation.
export function hashPassword(password: string): Promise<string> {
  return bounded(() => hash(password));
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no stored hash (unknown e-mail) it still verifies
 * against a dummy, so the answer takes the same time and cannot reveal which e-mails have accounts.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (storedHash === undefined) {
    dummyHash ??= hash('dummy password that matches nothing');
    const dummy = await dummyHash;
    await bounded(() => verify(dummy, password)).catch((error: unknown) => {
      if (error instanceof AppError) throw error;
      return false;
    });
    return false;
  }
  return bounded(() => verify(storedHash, password).catch(() => false));
}
