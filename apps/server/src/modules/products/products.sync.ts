import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from '../../db/client.js';
import { coalesce } from '../../lib/coalesce.js';
import type { CatalogueChange, CatalogueMessage } from './products.cache.js';
import { type StockChange, formatLsn, parseLsn } from './products.stock.js';

/**
 * The NOTIFY channel of catalogue changes (issue 13). The payload is the sending instance's id, then:
 * nothing (the products changed: drop everything), `:details` (only what products show besides
 * their stock), or `:stock:` and the new stock figures (issue 28), `<id>=<stock>@<log position>`
 * separated by `;`. An instance that does not know a form drops everything, which is always safe.
 */
export const CATALOGUE_CHANNEL = 'pixel_vault_catalogue';
const DETAILS = ':details';
const STOCK = ':stock:';
/** PostgreSQL refuses a payload of 8,000 bytes or more: several messages, then. */
const PAYLOAD_MAX = 7_000;

export interface CatalogueReceiver {
  invalidateLocal(change?: CatalogueChange): void;
  stockMovedLocal(changes: readonly StockChange[]): void;
}

/** The messages that tell what `pending` gathered, from instance `from`. */
export function catalogueMessages(
  from: string,
  pending: { products: boolean; details: boolean; stock: Map<string, StockChange> },
): string[] {
  if (pending.products) return [from];
  const messages = pending.details ? [`${from}${DETAILS}`] : [];
  let current = '';
  for (const change of pending.stock.values()) {
    const entry = `${change.id}=${change.stock}@${formatLsn(change.lsn)}`;
    if (current !== '' && current.length + entry.length + 1 > PAYLOAD_MAX) {
      messages.push(`${from}${STOCK}${current}`);
      current = '';
    }
    current = current === '' ? entry : `${current};${entry}`;
  }
  if (current !== '') messages.push(`${from}${STOCK}${current}`);
  return messages;
}

const STOCK_ENTRY = /^([0-9a-f-]{36})=(\d+)@([0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8})$/;

/** Reads a message; undefined when it is another form (then everything is dropped). */
export function readCatalogueMessage(
  payload: string,
): { from: string; message: CatalogueMessage } | undefined {
  const stockAt = payload.indexOf(STOCK);
  if (stockAt >= 0) {
    const changes: StockChange[] = [];
    for (const entry of payload.slice(stockAt + STOCK.length).split(';')) {
      const m = STOCK_ENTRY.exec(entry);
      if (!m) return undefined;
      changes.push({
        id: m[1]!,
        stock: Number(m[2]),
        lsn: parseLsn(m[3]!),
      });
    }
    return { from: payload.slice(0, stockAt), message: { kind: 'stock', changes } };
  }
  if (payload.endsWith(DETAILS))
    return { from: payload.slice(0, -DETAILS.length), message: { kind: 'details' } };
  return { from: payload, message: { kind: 'products' } };
}

export interface CatalogueSync {
  /** Gathers a change to tell the other instances: one round of messages per database round trip. */
  tell(message: CatalogueMessage): void;
  /** Starts taking the other instances' messages (the catalogue must exist by then); answers the stop. */
  listen(receiver: CatalogueReceiver): Promise<() => Promise<void>>;
}

/**
 * Catalogue changes between instances on one database (issue 13): every instance LISTENs, and tells
 * its own changes after they commit. A burst of changes (a busy checkout) is told in one round of
 * messages per round trip, not one message per change (lib/coalesce.ts).
 */
export function createCatalogueSync({
  db,
  listen,
  onError,
}: {
  db: Database;
  listen: NonNullable<DatabaseHandle['listen']>;
  onError: (error: unknown) => void;
}): CatalogueSync {
  /** This instance's name in the messages, so it skips its own. */
  const instanceId = randomUUID();
  let pending = { products: false, details: false, stock: new Map<string, StockChange>() };
  const send = coalesce(() => {
    const messages = catalogueMessages(instanceId, pending);
    pending = { products: false, details: false, stock: new Map() };
    if (messages.length === 0) return Promise.resolve();
    const notifies = sql.join(
      messages.map((payload) => sql`pg_notify(${CATALOGUE_CHANNEL}, ${payload})`),
      sql`, `,
    );
    return db.execute(sql`select ${notifies}`);
  }, onError);

  return {
    tell(message) {
      if (message.kind === 'stock') {
        for (const change of message.changes) {
          const known = pending.stock.get(change.id);
          if (!known || known.lsn < change.lsn) pending.stock.set(change.id, change);
        }
      } else if (message.kind === 'products') pending.products = true;
      else pending.details = true;
      send();
    },
    listen: (receiver) =>
      listen(CATALOGUE_CHANNEL, (payload) => {
        // undefined: the listening connection was lost a while, and changes may have been missed.
        if (payload === undefined) return receiver.invalidateLocal();
        const read = readCatalogueMessage(payload);
        if (read === undefined) return receiver.invalidateLocal();
        if (read.from === instanceId) return;
        if (read.message.kind === 'stock') receiver.stockMovedLocal(read.message.changes);
        else receiver.invalidateLocal(read.message.kind);
      }),
  };
}
