import { describe, expect, it } from 'vitest';
import { MAX_CART_LINES } from '@pixel-vault/shared';
import {
  type Catalogue,
  type CatalogueProduct,
  type DroppedLine,
  type KeptLine,
  type WantedLine,
  mergeCarts,
  resolveLines,
} from './cart.merge.js';

/**
 * Issue 34: the cart's rules, without a database. Ids are readable stand-ins (the rules only compare
 * them); `a1` is variant 1 of product `a`.
 */

/** A product without options: one variant, `<id>1`, with `stock`. */
const single = (id: string, stock: number): CatalogueProduct => ({
  id,
  name: id.toUpperCase(),
  category: 'retro-games',
  options: [],
  image: '',
  deleted: false,
  variants: [{ id: `${id}1`, position: 0, options: {}, priceCents: 1000, stock }],
});

/** A product sold in versions: `<id>1`, `<id>2`, ... with these stocks. */
const versions = (id: string, stocks: number[]): CatalogueProduct => ({
  ...single(id, 0),
  options: [{ name: 'Condition', values: stocks.map((_, i) => `C${i + 1}`) }],
  variants: stocks.map((stock, i) => ({
    id: `${id}${i + 1}`,
    position: i,
    options: { Condition: `C${i + 1}` },
    priceCents: 1000 + i,
    stock,
  })),
});

const catalogue: Catalogue = new Map(
  [
    single('a', 10),
    single('b', 3),
    single('s', 0),
    versions('v', [5, 2]),
    { ...single('gone', 4), deleted: true },
  ].map((p) => [p.id, p]),
);

const kept = (productId: string, variantId: string, qty: number): KeptLine => ({ productId, variantId, qty });
const drop = (product: string, variant: string | null, reason: DroppedLine['reason']): DroppedLine => ({
  product,
  variant,
  reason,
});

describe('mergeCarts: a visitor cart into the account cart', () => {
  const cases: {
    rule: string;
    current: KeptLine[];
    incoming: WantedLine[];
    lines: KeptLine[];
    dropped?: DroppedLine[];
  }[] = [
    {
      rule: 'an empty account cart becomes the visitor cart',
      current: [],
      incoming: [
        { product: 'a', qty: 2 },
        { product: 'v', variant: 'v2', qty: 1 },
      ],
      lines: [kept('a', 'a1', 2), kept('v', 'v2', 1)],
    },
    {
      rule: 'an empty visitor cart leaves the account cart as it is',
      current: [kept('a', 'a1', 2), kept('b', 'b1', 1)],
      incoming: [],
      lines: [kept('a', 'a1', 2), kept('b', 'b1', 1)],
    },
    {
      rule: 'the same product and variant: the larger quantity, the account side larger',
      current: [kept('a', 'a1', 4)],
      incoming: [{ product: 'a', qty: 2 }],
      lines: [kept('a', 'a1', 4)],
    },
    {
      rule: 'the same product and variant: the larger quantity, the visitor side larger',
      current: [kept('a', 'a1', 1)],
      incoming: [{ product: 'a', variant: 'a1', qty: 6 }],
      lines: [kept('a', 'a1', 6)],
    },
    {
      rule: 'another variant of the same product is another line, after the account lines',
      current: [kept('v', 'v1', 1), kept('a', 'a1', 1)],
      incoming: [{ product: 'v', variant: 'v2', qty: 2 }],
      lines: [kept('v', 'v1', 1), kept('a', 'a1', 1), kept('v', 'v2', 2)],
    },
    {
      rule: 'quantities are capped at stock, on both sides',
      current: [kept('b', 'b1', 7)],
      incoming: [
        { product: 'v', variant: 'v2', qty: 9 },
        { product: 'a', qty: 50 },
      ],
      lines: [kept('b', 'b1', 3), kept('v', 'v2', 2), kept('a', 'a1', 10)],
    },
    {
      rule: 'the larger quantity is taken first, then capped',
      current: [kept('b', 'b1', 2)],
      incoming: [{ product: 'b', qty: 8 }],
      lines: [kept('b', 'b1', 3)],
    },
    {
      rule: 'a sold-out line stays at 1 (as the web cart clamps), never 0',
      current: [kept('s', 's1', 3)],
      incoming: [{ product: 's', qty: 2 }],
      lines: [kept('s', 's1', 1)],
    },
    {
      rule: 'two visitor lines of one variant are summed first (a line naming the only variant, one naming none)',
      current: [kept('a', 'a1', 3)],
      incoming: [
        { product: 'a', qty: 2 },
        { product: 'a', variant: 'a1', qty: 2 },
      ],
      lines: [kept('a', 'a1', 4)],
    },
    {
      rule: 'a removed product is dropped and reported, from either side',
      current: [kept('gone', 'gone1', 1), kept('a', 'a1', 1)],
      incoming: [
        { product: 'gone', qty: 2 },
        { product: 'nope', qty: 1 },
      ],
      lines: [kept('a', 'a1', 1)],
      dropped: [
        drop('gone', 'gone1', 'product_unavailable'),
        drop('gone', null, 'product_unavailable'),
        drop('nope', null, 'product_unavailable'),
      ],
    },
    {
      rule: 'an archived variant, or another product’s, is dropped and reported',
      current: [kept('v', 'v9', 1)],
      incoming: [
        { product: 'a', variant: 'v1', qty: 1 },
        { product: 'b', qty: 1 },
      ],
      lines: [kept('b', 'b1', 1)],
      dropped: [drop('v', 'v9', 'variant_unavailable'), drop('a', 'v1', 'variant_unavailable')],
    },
    {
      rule: 'a product with options and no variant named is dropped: the shopper chooses',
      current: [],
      incoming: [
        { product: 'v', qty: 1 },
        { product: 'v', variant: 'v1', qty: 1 },
      ],
      lines: [kept('v', 'v1', 1)],
      dropped: [drop('v', null, 'variant_required')],
    },
    {
      rule: 'ids in upper case are the same ids',
      current: [kept('a', 'a1', 1)],
      incoming: [{ product: 'A', variant: 'A1', qty: 3 }],
      lines: [kept('a', 'a1', 3)],
    },
  ];

  it.each(cases)('$rule', ({ current, incoming, lines, dropped = [] }) => {
    expect(mergeCarts(current, incoming, catalogue)).toEqual({ lines, dropped });
  });

  it('stops at the line limit: the visitor lines past it are dropped as cart_full', () => {
    const many = Array.from({ length: MAX_CART_LINES + 3 }, (_, i) => single(`p${i}`, 5));
    const big: Catalogue = new Map(many.map((p) => [p.id, p]));
    const current = many.slice(0, MAX_CART_LINES - 1).map((p) => kept(p.id, `${p.id}1`, 1));
    // One line already in the cart (merged, not new), then four new ones: one fits.
    const incoming = [
      { product: 'p0', qty: 2 },
      ...many.slice(MAX_CART_LINES - 1).map((p) => ({ product: p.id, qty: 1 })),
    ];
    const merged = mergeCarts(current, incoming, big);
    expect(merged.lines).toHaveLength(MAX_CART_LINES);
    expect(merged.lines[0]).toEqual(kept('p0', 'p01', 2));
    expect(merged.lines.at(-1)).toEqual(kept(`p${MAX_CART_LINES - 1}`, `p${MAX_CART_LINES - 1}1`, 1));
    expect(merged.dropped).toEqual(
      [MAX_CART_LINES, MAX_CART_LINES + 1, MAX_CART_LINES + 2].map((i) =>
        drop(`p${i}`, `p${i}1`, 'cart_full'),
      ),
    );
  });
});

describe('resolveLines: the whole cart as sent (PUT)', () => {
  it('keeps the order sent and does not cap at stock (the answer says stockShort instead)', () => {
    expect(
      resolveLines(
        [
          { product: 'b', qty: 7 },
          { product: 'a', qty: 1 },
        ],
        catalogue,
      ),
    ).toEqual({
      lines: [kept('b', 'b1', 7), kept('a', 'a1', 1)],
      dropped: [],
    });
  });

  it('sums duplicates at the first one’s place, up to 99', () => {
    const { lines } = resolveLines(
      [
        { product: 'a', qty: 60 },
        { product: 'b', qty: 1 },
        { product: 'a', variant: 'a1', qty: 60 },
      ],
      catalogue,
    );
    expect(lines).toEqual([kept('a', 'a1', 99), kept('b', 'b1', 1)]);
  });

  it('reports a bad line sent twice once', () => {
    const { lines, dropped } = resolveLines(
      [
        { product: 'nope', qty: 1 },
        { product: 'nope', qty: 2 },
      ],
      catalogue,
    );
    expect(lines).toEqual([]);
    expect(dropped).toEqual([drop('nope', null, 'product_unavailable')]);
  });
});
