import { describe, expect, it } from 'vitest';
import { stockedAnswer } from './products.answers.js';
import { createStockBook, parseLsn } from './products.stock.js';
import { catalogueMessages, readCatalogueMessage } from './products.sync.js';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

describe('the stock book (issue 28)', () => {
  it('orders changes of a product by log position, however late one arrives', () => {
    const book = createStockBook({ keepMs: 60_000 });
    expect(book.apply([{ id: A, stock: 4, lsn: parseLsn('0/20') }])).toHaveLength(1);
    // An older write (its message came late) is not taken: the newer figure stays.
    expect(book.apply([{ id: A, stock: 5, lsn: parseLsn('0/10') }])).toHaveLength(0);
    expect(book.since(A, 0)).toBe(4);
    expect(book.apply([{ id: A, stock: 3, lsn: parseLsn('1/0') }])).toHaveLength(1);
    expect(book.since(A, 0)).toBe(3);
    expect(parseLsn('1/0')).toBeGreaterThan(parseLsn('0/FFFFFFFF'));
  });

  it('answers a figure only to what was read before it changed', () => {
    const book = createStockBook({ keepMs: 60_000 });
    book.apply([{ id: A, stock: 4, lsn: 1n }]);
    const readAfter = book.seq();
    expect(book.since(A, readAfter)).toBeUndefined();
    book.apply([{ id: A, stock: 2, lsn: 2n }]);
    expect(book.since(A, readAfter)).toBe(2);
    expect(book.since(B, 0)).toBeUndefined();
  });

  it('forgets changes older than keepMs, and says so when it must forget a younger one', () => {
    let now = 0;
    let overflows = 0;
    const book = createStockBook({
      keepMs: 1000,
      maxEntries: 2,
      now: () => now,
      onOverflow: () => overflows++,
    });
    book.apply([{ id: A, stock: 1, lsn: 1n }]);
    now = 1500;
    book.apply([{ id: B, stock: 1, lsn: 2n }]);
    expect(book.since(A, 0)).toBeUndefined();
    expect(overflows).toBe(0);
    const C = A.replace('a', 'c');
    const D = A.replace('a', 'd');
    book.apply([
      { id: C, stock: 1, lsn: 3n },
      { id: D, stock: 1, lsn: 4n },
    ]);
    // Three young changes for two places: the oldest went before its time.
    expect(overflows).toBe(1);
    expect(book.since(B, 0)).toBeUndefined();
    expect(book.since(D, 0)).toBe(1);
  });
});

describe('an answer with its stock cut out (issue 28)', () => {
  const product = (id: string, stockQuantity: number, productName = 'Zelda') => ({
    _id: id,
    productName,
    stockQuantity,
    productPrice: 10,
  });

  it('puts the newest stock in, keeps the rest of its bytes, and changes its ETag only then', () => {
    const book = createStockBook({ keepMs: 60_000 });
    const list = { products: [product(A, 3), product(B, 7)], page: 1 };
    const answer = stockedAnswer(list, book, book.seq());
    const first = answer.current();
    expect(JSON.parse(first.body.toString())).toEqual(list);
    expect(answer.current()).toBe(first);

    book.apply([{ id: B, stock: 6, lsn: 1n }]);
    const second = answer.current();
    expect(JSON.parse(second.body.toString())).toEqual({ ...list, products: [product(A, 3), product(B, 6)] });
    expect(second.etag).not.toBe(first.etag);
    // A quick form for what a busy checkout makes again and again.
    expect(second.quick).toBe(true);
    expect(answer.stock()).toEqual({ ids: [A, B], stocks: [3, 6] });

    // Another product's change: the same answer, nothing put together again.
    book.apply([{ id: A.replace('a', 'f'), stock: 1, lsn: 2n }]);
    expect(answer.current()).toBe(second);
  });

  it('is not fooled by product text that looks like a stock figure', () => {
    const book = createStockBook({ keepMs: 60_000 });
    const sly = product(A, 3, '"stockQuantity":99 pv-stock-0123 "pv-stock-"');
    const answer = stockedAnswer(sly, book, book.seq());
    book.apply([{ id: A, stock: 0, lsn: 1n }]);
    expect(JSON.parse(answer.current().body.toString())).toEqual({ ...sly, stockQuantity: 0 });
  });

  it('names its content apart from stock, and keeps the compressed forms of an answer read again unchanged', () => {
    const book = createStockBook({ keepMs: 60_000 });
    const before = stockedAnswer(product(A, 3), book, book.seq());
    const sameContent = stockedAnswer(product(A, 2), book, book.seq());
    const other = stockedAnswer(product(A, 3, 'Metroid'), book, book.seq());
    expect(sameContent.content).toBe(before.content);
    expect(other.content).not.toBe(before.content);
    const again = stockedAnswer(product(A, 3), book, book.seq(), before);
    expect(again.current()).toBe(before.current());
  });
});

describe('catalogue messages between instances (issue 28)', () => {
  const from = 'instance-1';

  it('carries stock figures with their log positions, and reads them back', () => {
    const stock = new Map([
      [A, { id: A, stock: 4, lsn: parseLsn('16/B374D848') }],
      [B, { id: B, stock: 0, lsn: parseLsn('0/1') }],
    ]);
    const messages = catalogueMessages(from, { products: false, details: false, stock });
    expect(messages).toHaveLength(1);
    expect(readCatalogueMessage(messages[0]!)).toEqual({
      from,
      message: { kind: 'stock', changes: [...stock.values()] },
    });
  });

  it('splits many figures into messages PostgreSQL accepts, and says only "products" when they changed', () => {
    const stock = new Map(
      Array.from({ length: 300 }, (_, i) => {
        const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
        return [id, { id, stock: i, lsn: BigInt(i + 1) }] as const;
      }),
    );
    const messages = catalogueMessages(from, { products: false, details: true, stock });
    expect(messages[0]).toBe(`${from}:details`);
    expect(messages.length).toBeGreaterThan(2);
    for (const message of messages) expect(Buffer.byteLength(message)).toBeLessThan(8000);
    const read = messages.slice(1).flatMap((m) => {
      const r = readCatalogueMessage(m);
      return r?.message.kind === 'stock' ? r.message.changes : [];
    });
    expect(read).toEqual([...stock.values()]);
    expect(catalogueMessages(from, { products: true, details: true, stock })).toEqual([from]);
  });

  it('reads an older instance’s messages, and anything it cannot read as "drop everything"', () => {
    expect(readCatalogueMessage(`${from}:details`)).toEqual({ from, message: { kind: 'details' } });
    expect(readCatalogueMessage(from)).toEqual({ from, message: { kind: 'products' } });
    expect(readCatalogueMessage(`${from}:stock:${A}=x@0/1`)).toBeUndefined();
  });
});
