import type { PgPreparedQuery, PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { Executor } from './client.js';

/** A drizzle query that can be prepared (a select, update, insert or delete builder). */
interface Preparable<Result> {
  prepare(name: string): PgPreparedQuery<PreparedQueryConfig & { execute: Result }>;
}

/** Drizzle's prepared query runs on its `client`; an executor's session holds the one it uses. */
interface OnClient {
  client: unknown;
}
interface WithSession {
  session: OnClient & object;
}

/**
 * No name: node-postgres then leaves the statement to db/statement-cache.ts, which names it by its
 * text and drops a plan gone stale after a migration; a name of drizzle's would skip both.
 */
const UNNAMED = undefined as unknown as string;

/**
 * A statement drizzle builds once, run on any executor (the database or an open transaction) with its
 * placeholders (`sql.placeholder`) filled (issue 28).
 *
 * Drizzle builds a query's text, parameter list and result mapping again on every call: 60 µs for
 * the authentication's join, and 20-25% of the shop's own CPU per checkout. Its prepared query keeps
 * all three but is bound to the connection it was made on, so it cannot serve a transaction opened
 * later. This keeps the built query and runs it each time on the connection of the executor at hand
 * (its session's client: the pool or PGlite, or a transaction's connection), with the result mapped
 * as drizzle maps it. One built query per driver, in case a process uses both engines.
 *
 * It relies on two fields drizzle marks internal (an executor's `session`, and its `client`, read by
 * the prepared query's `execute`); db/built-once.test.ts runs it on both engines, in and out of a
 * transaction, so an upgrade that changes them fails there.
 */
export function builtOnce<Values extends Record<string, unknown>, Result>(
  build: (executor: Executor) => Preparable<Result>,
): (executor: Executor, values: Values) => Promise<Result> {
  const byDriver = new Map<unknown, PgPreparedQuery<PreparedQueryConfig & { execute: Result }>>();
  return (executor, values) => {
    const { session } = executor as unknown as WithSession;
    let prepared = byDriver.get(session.constructor);
    if (prepared === undefined) {
      prepared = build(executor).prepare(UNNAMED);
      byDriver.set(session.constructor, prepared);
    }
    const bound = Object.create(prepared, { client: { value: session.client } }) as typeof prepared;
    return bound.execute(values);
  };
}
