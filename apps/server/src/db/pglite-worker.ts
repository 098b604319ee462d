import { type MessagePort, workerData } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { PGLITE_OPTIONS, SEARCH_SESSION_SQL } from './pglite-options.js';
import { prepareRepeatedStatements } from './pglite-statements.js';

/**
 * The thread PGlite runs on (issue 28; pglite-remote.ts is the app's side). One PGlite, one session:
 * requests are answered in the order PGlite's own queue runs them, a transaction holds it from its
 * `begin` to its `end`, and every answer is posted back with the id of its request.
 */

/** What the app asks. `tx` names an open transaction (the id of its `begin`). */
export type WorkerRequest =
  | { id: number; op: 'open'; dataDir?: string; loadDataDir?: Blob }
  | {
      id: number;
      op: 'query';
      tx?: number;
      text: string;
      params: unknown[];
      rowMode?: 'array' | 'object';
      /** Types answered as the text PostgreSQL sent (drizzle's parsers are all `(value) => value`). */
      rawTypes?: number[];
    }
  | { id: number; op: 'exec'; tx?: number; text: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen' | 'unlisten'; channel: string }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

/** An error as it crosses: its message, name, and PostgreSQL's fields (code, detail, constraint…). */
export interface WireError {
  name: string;
  message: string;
  fields: Record<string, string | number | boolean | null>;
}

/** What the thread answers: to a request, or a NOTIFY on a channel listened to. */
export type WorkerReply =
  | { id: number; ok: true; value?: unknown }
  | { id: number; ok: false; error: WireError }
  | { notify: string; payload: string };

/** A query's answer as it crosses: all of PGlite's but the blob (never asked for here). */
export type WireResults = Omit<Results, 'blob'>;

function crossing(results: Results): WireResults {
  const { blob, ...rest } = results;
  void blob;
  return rest;
}

function wire(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: WireError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
      fields[key] = value as string | number | boolean | null;
    }
  }
  return { name: error.name, message: error.message, fields };
}

const keepText = (value: string) => value;
const optionsByTypes = new Map<string, QueryOptions>();

function queryOptions(rowMode: 'array' | 'object' | undefined, rawTypes: number[] | undefined): QueryOptions {
  const key = `${rowMode ?? ''}:${rawTypes?.join(',') ?? ''}`;
  let options = optionsByTypes.get(key);
  if (!options) {
    options = {
      ...(rowMode ? { rowMode } : {}),
      ...(rawTypes ? { parsers: Object.fromEntries(rawTypes.map((type) => [type, keepText])) } : {}),
    };
    optionsByTypes.set(key, options);
  }
  return options;
}

const ROLLBACK = Symbol('rollback');
/** An answer sent later, by something else (an `end` is answered when its transaction has ended). */
const LATER = Symbol('later');

/** Marks the worker this module is started as (workerData), so importing it elsewhere starts nothing. */
export const PGLITE_WORKER = 'pixel-vault-pglite';

/** What the worker is started with: the marker, and the port it serves (pglite-remote.ts). */
export interface PgliteWorkerData {
  marker: typeof PGLITE_WORKER;
  port: MessagePort;
}

/** Serves one PGlite on `port` (the channel pglite-remote.ts opened to this worker). */
export function servePglite(port: MessagePort): void {
  let client: PGlite | undefined;
  const transactions = new Map<
    number,
    { ready: Promise<Transaction>; end(commit: boolean, endId: number): void }
  >();
  const unlistens = new Map<string, () => Promise<void>>();
  const reply = (message: WorkerReply) => port.postMessage(message);

  const database = (): PGlite => {
    if (!client) throw new Error('The database is not open');
    return client;
  };
  /** The database, or the open transaction `tx` once it has begun. */
  const executor = async (tx: number | undefined): Promise<PGlite | Transaction> => {
    if (tx === undefined) return database();
    const open = transactions.get(tx);
    if (!open) throw new Error('Transaction is closed');
    return open.ready;
  };

  /**
   * Opens transaction `id`. The app does not wait for it: its statements follow at once, and wait
   * here for the transaction's turn (a message each way less per transaction, while it holds the
   * database). If it cannot begin, they, its `end` and the `begin` are answered the error.
   */
  function begin(id: number, db: PGlite) {
    let endId = 0;
    let began = false;
    let opened!: (tx: Transaction) => void;
    let refused!: (error: unknown) => void;
    let finish!: (commit: boolean) => void;
    const ready = new Promise<Transaction>((resolve, reject) => {
      opened = resolve;
      refused = reject;
    });
    ready.catch(() => {});
    const ended = new Promise<boolean>((resolve) => (finish = resolve));
    transactions.set(id, {
      ready,
      end: (commit, by) => {
        endId = by;
        finish(commit);
      },
    });
    db.transaction(async (tx) => {
      began = true;
      opened(tx);
      reply({ id, ok: true });
      if (!(await ended)) throw ROLLBACK;
    }).then(
      () => reply({ id: endId, ok: true }),
      (error: unknown) => {
        if (error === ROLLBACK) reply({ id: endId, ok: true });
        else if (began) reply({ id: endId, ok: false, error: wire(error) });
        else {
          refused(error);
          reply({ id, ok: false, error: wire(error) });
        }
      },
    );
  }

  async function answer(request: WorkerRequest): Promise<unknown> {
    switch (request.op) {
      case 'open': {
        client = await PGlite.create(request.dataDir, {
          ...PGLITE_OPTIONS,
          ...(request.loadDataDir ? { loadDataDir: request.loadDataDir } : {}),
        });
        await client.exec(SEARCH_SESSION_SQL);
        prepareRepeatedStatements(client);
        return undefined;
      }
      case 'query': {
        const db = await executor(request.tx);
        return crossing(
          await db.query(request.text, request.params, queryOptions(request.rowMode, request.rawTypes)),
        );
      }
      case 'exec': {
        const results = await (await executor(request.tx)).exec(request.text);
        return results.map(crossing);
      }
      case 'end': {
        const open = transactions.get(request.tx);
        if (!open) throw new Error('Transaction is closed');
        transactions.delete(request.tx);
        await open.ready;
        open.end(request.commit, request.id);
        return LATER;
      }
      case 'listen': {
        if (!unlistens.has(request.channel)) {
          const channel = request.channel;
          const unlisten = await database().listen(channel, (payload) => reply({ notify: channel, payload }));
          unlistens.set(channel, unlisten);
        }
        return undefined;
      }
      case 'unlisten': {
        const unlisten = unlistens.get(request.channel);
        unlistens.delete(request.channel);
        if (unlisten && client && !client.closed) await unlisten();
        return undefined;
      }
      case 'dump':
        return database().dumpDataDir('none');
      case 'close':
        if (client && !client.closed) await client.close();
        return undefined;
      case 'begin':
        throw new Error('begin is answered by its transaction');
    }
  }

  port.on('message', (request: WorkerRequest) => {
    if (request.op === 'begin') {
      if (client) begin(request.id, client);
      else reply({ id: request.id, ok: false, error: wire(new Error('The database is not open')) });
      return;
    }
    answer(request).then(
      (value) => {
        if (value !== LATER) reply({ id: request.id, ok: true, value });
      },
      (error: unknown) => reply({ id: request.id, ok: false, error: wire(error) }),
    );
  });
}

const data = workerData as PgliteWorkerData | undefined;
if (data?.marker === PGLITE_WORKER) servePglite(data.port);
