import {
  type CartDropReason,
  MAX_CART_LINES,
  MAX_LINE_QUANTITY,
  type ProductOption,
} from '@pixel-vault/shared';

/**
 * Issue 34: the cart's rules, with no database: which variant a line sent by a client is, what a
 * replacing write keeps, and how a visitor's cart merges into the account's. The service reads the
 * catalogue (cart.repo.ts) and hands it in.
 */

/** A live variant as the cart needs it; `position` 0 is the product's default. */
export interface CatalogueVariant {
  id: string;
  position: number;
  options: Record<string, string>;
  priceCents: number;
  stock: number;
}

/** A product named by a cart, removed ones too (`deleted`: the cart drops their lines, naming them). */
export interface CatalogueProduct {
  id: string;
  name: string;
  category: string;
  options: ProductOption[];
  /** The first image, as stored ('' when none). */
  image: string;
  deleted: boolean;
  /** Its live variants by position. */
  variants: CatalogueVariant[];
}

/** Every product a cart write or read names, by id (lower case, as PostgreSQL writes uuids). */
export type Catalogue = ReadonlyMap<string, CatalogueProduct>;

/** A line as a client sends it (or as the cart keeps it: then `variant` is always named). */
export interface WantedLine {
  product: string;
  variant?: string | null | undefined;
  qty: number;
}

/** A line that names a live variant of a live product. */
export interface KeptLine {
  productId: string;
  variantId: string;
  qty: number;
}

export interface DroppedLine {
  product: string;
  variant: string | null;
  reason: CartDropReason;
}

export interface CartLines {
  lines: KeptLine[];
  dropped: DroppedLine[];
}

const key = (line: { product: string; variant: string | null }) => `${line.product}/${line.variant ?? ''}`;

/**
 * The variant each wanted line buys, in the order sent. A line without a variant is the product's only
 * one (a product without options has exactly one live variant); a product with options needs one
 * named (`variant_required`: the shopper chooses, the cart does not guess). A removed or unknown
 * product, or a variant that is archived or another product's, is dropped and reported, never a 500.
 * Two lines that come to the same variant are one, at the first one's place, their quantities added
 * up to MAX_LINE_QUANTITY. A bad line sent twice is reported once.
 */
export function resolveLines(wanted: readonly WantedLine[], catalogue: Catalogue): CartLines {
  const lines = new Map<string, KeptLine>();
  const dropped = new Map<string, DroppedLine>();
  for (const w of wanted) {
    const productId = w.product.toLowerCase();
    const variantId = w.variant ? w.variant.toLowerCase() : null;
    const found = variantFor(catalogue.get(productId), variantId);
    if (typeof found === 'string') {
      const line: DroppedLine = { product: productId, variant: variantId, reason: found };
      dropped.set(key(line), line);
      continue;
    }
    const known = lines.get(found.id);
    if (known) known.qty = Math.min(known.qty + w.qty, MAX_LINE_QUANTITY);
    else lines.set(found.id, { productId, variantId: found.id, qty: Math.min(w.qty, MAX_LINE_QUANTITY) });
  }
  return { lines: [...lines.values()], dropped: [...dropped.values()] };
}

/**
 * The variant a line names (or, naming none, the product's only one), or why there is none. Also the
 * rule of a back-in-stock alert's variant (modules/alerts), so both name the same one.
 */
export function variantFor(
  product: CatalogueProduct | undefined,
  variantId: string | null,
): CatalogueVariant | CartDropReason {
  if (!product || product.deleted) return 'product_unavailable';
  if (variantId) return product.variants.find((v) => v.id === variantId) ?? 'variant_unavailable';
  if (product.options.length > 0) return 'variant_required';
  return product.variants[0] ?? 'variant_unavailable';
}

/** The stock of a kept line's variant (0 when the catalogue no longer has it). */
function stockOf(line: KeptLine, catalogue: Catalogue): number {
  return catalogue.get(line.productId)?.variants.find((v) => v.id === line.variantId)?.stock ?? 0;
}

/**
 * A visitor's cart (`incoming`) merged into the account's (`current`), at login or registration:
 * - the account's lines stay first, in their order; a line of a variant it lacks is added after them;
 * - the same product and variant on both: the larger quantity (not the sum: the same wish twice);
 * - every quantity capped at the variant's stock, but never below 1 (as the web cart's clampQty): a
 *   sold-out line stays, and the answer says it is short;
 * - lines of removed products or variants, on either side, dropped and reported;
 * - lines that would take the cart past MAX_CART_LINES dropped and reported (`cart_full`).
 */
export function mergeCarts(
  current: readonly KeptLine[],
  incoming: readonly WantedLine[],
  catalogue: Catalogue,
): CartLines {
  const kept = resolveLines(
    current.map((l) => ({ product: l.productId, variant: l.variantId, qty: l.qty })),
    catalogue,
  );
  const sent = resolveLines(incoming, catalogue);
  const merged = new Map(kept.lines.map((l) => [l.variantId, { ...l }]));
  for (const line of sent.lines) {
    const known = merged.get(line.variantId);
    if (known) known.qty = Math.max(known.qty, line.qty);
    else merged.set(line.variantId, { ...line });
  }
  const lines: KeptLine[] = [];
  const dropped = [...kept.dropped, ...sent.dropped];
  for (const line of merged.values()) {
    if (lines.length >= MAX_CART_LINES) {
      dropped.push({ product: line.productId, variant: line.variantId, reason: 'cart_full' });
      continue;
    }
    lines.push({ ...line, qty: Math.min(line.qty, Math.max(stockOf(line, catalogue), 1)) });
  }
  return { lines, dropped };
}
