import {
  type PGlite,
  type QueryOptions,
  type Results,
  type Transaction,
  parse,
  protocol,
  types,
} from '@electric-sql/pglite';
import {
  type StatementCacheLimits,
  type StatementNamer,
  createStatementNamer,
  isStalePlan,
} from './statement-cache.js';

/** A message PostgreSQL answered, as PGlite decodes it. */
type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];
type RowDescription = InstanceType<typeof protocol.messages.RowDescriptionMessage>;

/**
 * Prepared statements for PGlite, as statement-cache.ts gives node-postgres (issue 28).
 *
 * PGlite's `query` sends every statement unnamed and in six calls into the database: Parse, Describe
 * (to learn the parameters' types), Bind, Describe, Execute and Sync, each a separate pass through
 * PostgreSQL's protocol loop and its own batch of messages to decode. PostgreSQL then parses, analyses
 * and plans the text again each time. A checkout sends about twenty statements, all of them in the
 * event loop, on the one thread browsing also needs.
 *
 * A text sent a second time is prepared under a name instead (Parse and Describe once, in one call),
 * and from then on runs as Bind, Execute and Sync in a single call, its parameter types and result
 * columns read from what the Describe answered. After five runs PostgreSQL may keep a generic plan.
 * Texts marked CUSTOM_PLAN, longer ones and those past the caps go through PGlite's own path, as do
 * first sightings, and calls with their own parameter types or a blob. The answer has the shape and
 * values of PGlite's own (decode below; the tests compare the two).
 */
interface Prepared {
  paramTypes: number[];
  /** The statement's RowDescription, or none for a statement that returns no rows. */
  columns: RowDescription | undefined;
}

type Query = (text: string, params?: unknown[], options?: QueryOptions) => Promise<Results>;

/** What this module reaches of PGlite beyond its documented interface (all on the instance). */
interface PGliteInternals {
  _checkReady(): Promise<void>;
  _runExclusiveTransaction<T>(work: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(work: () => Promise<T>): Promise<T>;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

/**
 * The rows of an answer, as PGlite's `parseResults` gives them. That function merges every type's
 * parser with the query's own (Drizzle passes four) into a new object on each call, which cost more
 * than the rest of the decoding; this looks up each column's parser once per answer instead.
 */
function decode(
  prepared: Prepared,
  answer: BackendMessage[],
  options: QueryOptions | undefined,
  ownParsers: PGlite['parsers'],
): Results {
  const columns = prepared.columns?.fields ?? [];
  const fields = columns.map(({ name, dataTypeID }) => ({ name, dataTypeID }));
  const parsers = columns.map(
    ({ dataTypeID }) => options?.parsers?.[dataTypeID] ?? ownParsers[dataTypeID] ?? types.parsers[dataTypeID],
  );
  const value = (raw: string | null, i: number) => {
    if (raw === null) return null;
    const parser = parsers[i];
    return parser ? parser(raw, columns[i]!.dataTypeID) : raw;
  };
  const rows: unknown[] = [];
  let done: { command: string; count: number } | undefined;
  for (const message of answer) {
    if (message.name === 'dataRow') {
      const raw = (message as InstanceType<typeof protocol.messages.DataRowMessage>).fields;
      if (options?.rowMode === 'array') rows.push(raw.map(value));
      else {
        const row: Record<string, unknown> = {};
        raw.forEach((cell, i) => {
          row[columns[i]!.name] = value(cell, i);
        });
        rows.push(row);
      }
    } else if (message.name === 'commandComplete') {
      const words = (message as InstanceType<typeof protocol.messages.CommandCompleteMessage>).text.split(
        ' ',
      );
      done = { command: words[0]!, count: parseInt(words.at(-1)!, 10) };
    }
  }
  if (!done) return { rows: [], fields: [], affectedRows: 0 } as Results;
  const changes = ['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(done.command) ? done.count : 0;
  return {
    rows,
    fields,
    command: done.command,
    affectedRows: changes,
    ...(Number.isNaN(done.count) ? {} : { rowCount: done.count }),
  } as Results;
}

/** Options this module does not carry over (none of the shop's own calls uses them). */
const ownPathFor = (options: QueryOptions | undefined) => Boolean(options?.blob || options?.paramTypes);

/**
 * Makes `client` (and every transaction it opens) run repeated statements as prepared ones. Call it
 * once, right after the client is created and before anything queries it.
 */
export function prepareRepeatedStatements(client: PGlite, limits: Partial<StatementCacheLimits> = {}): void {
  const namer: StatementNamer = createStatementNamer(limits);
  const statements = new Map<string, Prepared>();
  const internals = client as unknown as PGliteInternals;
  const ownQuery: Query = client.query.bind(client) as Query;
  const ownTransaction = client.transaction.bind(client);

  async function prepare(name: string, text: string): Promise<Prepared> {
    const answer = await client.execProtocolStream(
      concat([
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const prepared: Prepared = {
      paramTypes: parse.parseDescribeStatementResults(answer),
      columns: answer.find((message): message is RowDescription => message.name === 'rowDescription'),
    };
    statements.set(name, prepared);
    return prepared;
  }

  /** Runs the named statement; the caller holds the transaction's turn (or is inside one). */
  function run(
    name: string,
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ) {
    return internals._runExclusiveQuery(async () => {
      const prepared = statements.get(name) ?? (await prepare(name, text));
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const type = prepared.paramTypes[i]!;
        const serializer = options?.serializers?.[type] ?? client.serializers[type];
        return serializer ? serializer(value) : String(value);
      });
      let answer: BackendMessage[];
      try {
        answer = await client.execProtocolStream(
          concat([
            protocol.serialize.bind({ statement: name, values }),
            protocol.serialize.execute({}),
            protocol.serialize.sync(),
          ]),
          { syncToFs: false, ...(options?.onNotice ? { onNotice: options.onNotice } : {}) },
        );
      } catch (error) {
        if (isStalePlan(error)) {
          statements.delete(name);
          namer.forget(text);
        }
        throw error;
      }
      if (!inTransaction) await client.syncToFs();
      return decode(prepared, answer, options, client.parsers);
    });
  }

  const query: Query = async (text, params = [], options) => {
    const name = namer.nameOf(text);
    if (name === undefined || ownPathFor(options)) return ownQuery(text, params, options);
    await internals._checkReady();
    return internals._runExclusiveTransaction(() => run(name, text, params, options, false));
  };
  client.query = query as PGlite['query'];

  client.transaction = (async <T>(work: (tx: Transaction) => Promise<T>) =>
    ownTransaction((tx) => {
      const ownTxQuery: Query = tx.query.bind(tx) as Query;
      const txQuery: Query = async (text, params = [], options) => {
        const name = namer.nameOf(text);
        if (name === undefined || ownPathFor(options) || tx.closed) return ownTxQuery(text, params, options);
        return run(name, text, params, options, true);
      };
      return work(Object.assign(Object.create(tx) as Transaction, { query: txQuery }));
    })) as PGlite['transaction'];
}
