import { MessageChannel, type MessagePort, Worker, receiveMessageOnPort } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import {
  PGLITE_WORKER,
  type PgliteWorkerData,
  type WireError,
  type WorkerReply,
  type WorkerRequest,
} from './pglite-worker.js';

/**
 * PGlite on a thread of its own (issue 28), as the app sees it: the part of PGlite's interface that
 * drizzle (`query`, `transaction`) and the app (`listen`, `dumpDataDir`, `close`) use.
 *
 * In the app's own thread, PGlite ran every statement synchronously: while a checkout's twenty
 * statements ran, no request was read and no page was sent, and the shop used one core of the
 * machine's however many. On its own thread, the database works while the event loop answers
 * requests, and each statement costs the app one message each way.
 */

type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** PGlite's transaction, as drizzle's session uses it. */
export interface RemoteTransaction {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
  readonly closed: boolean;
}

/** PostgreSQL's error, as PGlite threw it: same message, code, detail, constraint… */
function rebuild(error: WireError): Error {
  const rebuilt = new Error(error.message) as Error & Record<string, unknown>;
  Object.assign(rebuilt, error.fields);
  rebuilt.name = error.name;
  return rebuilt;
}

/**
 * The worker's module: built JavaScript beside this file, or (tests, `npm run dev`) its TypeScript.
 * Requests and answers travel on `port`'s channel rather than the worker's own, so that answers can
 * also be taken synchronously (takeReplies).
 */
function startWorker(port: MessagePort): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`./pglite-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  const workerData: PgliteWorkerData = { marker: PGLITE_WORKER, port };
  if (!fromSource) return new Worker(entry, { workerData, transferList: [port] });
  // TypeScript needs tsx's loader in the worker too (execArgv's --import does not reach a worker).
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`,
    { eval: true, workerData, transferList: [port] },
  );
}

export class PGliteRemote {
  readonly #worker: Worker;
  /** This side of the channel the worker serves (requests out, answers and notifications in). */
  readonly #port: MessagePort;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  #nextId = 1;
  #stopped: Error | undefined;
  #closed = false;
  /** Calls holding or waiting for the database (a transaction counts once, from begin to end). */
  #outstanding = 0;

  private constructor(onExit: (error: Error) => void) {
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    this.#worker = startWorker(port2);
    this.#port.on('message', (reply: WorkerReply) => this.#receive(reply));
    this.#unref();
    const stop = (error: Error) => {
      if (this.#stopped) return;
      this.#stopped = error;
      for (const { reject } of this.#pending.values()) reject(error);
      this.#pending.clear();
      // Nothing more can come: the channel no longer keeps the process alive.
      this.#port.close();
      if (!this.#closed) onExit(error);
    };
    this.#worker.on('error', (error) =>
      stop(new Error(`The database thread failed: ${error.message}`, { cause: error })),
    );
    this.#worker.on('exit', (code) => stop(new Error(`The database thread stopped (exit code ${code})`)));
  }

  /**
   * Starts the thread and opens PGlite in it (in memory without `dataDir`). `onExit` is told if the
   * thread dies while open: every call fails from then on.
   */
  static async open(options: {
    dataDir?: string | undefined;
    loadDataDir?: Blob | undefined;
    onExit?: ((error: Error) => void) | undefined;
  }): Promise<PGliteRemote> {
    const remote = new PGliteRemote(options.onExit ?? (() => {}));
    try {
      await remote.#call({
        op: 'open',
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
        ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      });
    } catch (error) {
      remote.#closed = true;
      remote.#port.close();
      await remote.#worker.terminate();
      throw error;
    }
    return remote;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The one connection's use, as a pool reports it (metrics.db.ts). */
  poolState(): { inUse: number; waiting: number } {
    const inUse = Math.min(1, this.#outstanding);
    return { inUse, waiting: this.#outstanding - inUse };
  }

  #ref() {
    this.#worker.ref();
    this.#port.ref();
  }

  #unref() {
    this.#worker.unref();
    this.#port.unref();
  }

  /**
   * Takes the answers that have arrived and not been handled yet, now (issue 28). The app calls it as
   * each request starts. PGlite runs one transaction at a time, and between two of its statements a
   * transaction waits for this thread: an answer left in the queue until the event loop has read and
   * answered a whole batch of requests keeps the database idle, and every other checkout waiting.
   * Taken here, the transaction's next statement is sent as soon as the request in hand is answered.
   */
  takeReplies(): void {
    // Nothing in flight, nothing to hurry: a browsing request on an idle database asks nothing more.
    if (this.#pending.size === 0) return;
    for (let taken = receiveMessageOnPort(this.#port); taken; taken = receiveMessageOnPort(this.#port)) {
      this.#receive(taken.message as WorkerReply);
    }
  }

  #receive(reply: WorkerReply) {
    if ('notify' in reply) {
      for (const listener of this.#listeners.get(reply.notify) ?? []) listener(reply.payload);
      return;
    }
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    // Only calls in flight keep the process alive (a script ends once its last query is answered).
    if (this.#pending.size === 0) this.#unref();
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(rebuild(reply.error));
  }

  #call<T>(request: Request): Promise<T> & { id: number } {
    const id = this.#nextId++;
    const answer = new Promise<T>((resolve, reject) => {
      if (this.#stopped) {
        reject(this.#stopped);
        return;
      }
      if (this.#pending.size === 0) this.#ref();
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        this.#port.postMessage({ ...request, id } as WorkerRequest);
      } catch (error) {
        // A parameter that cannot cross (DataCloneError): this call fails, nothing is left waiting.
        this.#pending.delete(id);
        if (this.#pending.size === 0) this.#unref();
        reject(error as Error);
      }
    });
    return Object.assign(answer, { id });
  }

  async #counted<T>(work: () => Promise<T>): Promise<T> {
    this.#outstanding += 1;
    try {
      return await work();
    } finally {
      this.#outstanding -= 1;
    }
  }

  #query<T>(text: string, params: unknown[] | undefined, options: QueryOptions | undefined, tx?: number) {
    return this.#call<Results<T>>({
      op: 'query',
      text,
      params: params ?? [],
      ...(tx === undefined ? {} : { tx }),
      ...(options?.rowMode ? { rowMode: options.rowMode } : {}),
      ...(options?.parsers ? { rawTypes: Object.keys(options.parsers).map(Number) } : {}),
    });
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#counted(() => this.#query<T>(text, params, options));
  }

  exec(text: string): Promise<Results[]> {
    return this.#counted(() => this.#call<Results[]>({ op: 'exec', text }));
  }

  /**
   * Runs `work` in a transaction: committed when it resolves, rolled back when it throws (and the
   * error thrown again). Everything else waits for it, as on PGlite itself.
   */
  transaction<T>(work: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    return this.#counted(async () => {
      // Not waited for: the first statement follows at once (pglite-worker.ts). A BEGIN that failed
      // fails the transaction, whether or not its work asked anything.
      const begin = this.#call<void>({ op: 'begin' });
      begin.catch(() => {});
      let closed = false;
      const whileOpen = <R>(call: () => Promise<R>) =>
        closed ? Promise.reject(new Error('Transaction is closed')) : call();
      const tx: RemoteTransaction = {
        query: (text, params, options) => whileOpen(() => this.#query(text, params, options, begin.id)),
        exec: (text) => whileOpen(() => this.#call({ op: 'exec', text, tx: begin.id })),
        get closed() {
          return closed;
        },
      };
      let result: T;
      try {
        result = await work(tx);
      } catch (error) {
        closed = true;
        // The rollback's own failure (a dead thread) says less than what made the work fail.
        await this.#call({ op: 'end', tx: begin.id, commit: false }).catch(() => {});
        throw error;
      }
      closed = true;
      await this.#call({ op: 'end', tx: begin.id, commit: true });
      return result;
    });
  }

  /** LISTEN on `channel`; answers the function that stops this listener. */
  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    let listeners = this.#listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(channel, listeners);
      await this.#call({ op: 'listen', channel });
    }
    listeners.add(onPayload);
    return async () => {
      const current = this.#listeners.get(channel);
      if (!current?.delete(onPayload) || current.size > 0) return;
      this.#listeners.delete(channel);
      if (!this.#closed && !this.#stopped) await this.#call({ op: 'unlisten', channel });
    };
  }

  /** The data directory as a tar (backups). */
  dumpDataDir(compression: 'none'): Promise<Blob> {
    void compression;
    return this.#counted(() => this.#call<Blob>({ op: 'dump' }));
  }

  /** Ends the thread at once, as a crash would (its files as a kill -9 leaves them): for tests. */
  async terminate(): Promise<void> {
    await this.#worker.terminate();
  }

  /** Closes PGlite (its files written) and ends the thread. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      if (!this.#stopped) await this.#call({ op: 'close' });
    } finally {
      this.#closed = true;
      this.#port.close();
      await this.#worker.terminate();
    }
  }
}
