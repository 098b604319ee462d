import type { Product, ProductListResponse, ProductOption, ProductVariant } from '@pixel-vault/shared';
import type { CartItem } from '../app/cartSlice';

let seq = 0;

/** A variant as a test gives it: its trade-in credit (issue 35) may be left out, for not bought. */
type VariantOverride = Omit<ProductVariant, 'tradeInCredit'> & { tradeInCredit?: number | null };

/** A product as GET /api/products/:id answers it. */
export function makeProduct(
  overrides: Partial<Omit<Product, 'variants'>> & { variants?: VariantOverride[] } = {},
): Product {
  seq += 1;
  const id = `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;
  const product: Omit<Product, 'options' | 'variants' | 'priceRange'> = {
    _id: id,
    productName: `Test Game ${seq}`,
    productDescription: 'A fine game.',
    productPrice: 19.99,
    productCategory: 'retro-games',
    platform: null,
    productImage: [`/uploads/${id}-1.webp`],
    stockQuantity: 5,
    productRating: 4.3,
    reviewCount: 12,
    reviews: [],
    createdAt: '2024-01-05T10:00:00.000Z',
    updatedAt: '2024-01-05T10:00:00.000Z',
    ...overrides,
  };
  // Sold in one form unless the test says otherwise (issue 31): the default variant is the product's.
  const variants = (
    overrides.variants ?? [
      {
        _id: `00000000-0000-4000-a000-${String(seq).padStart(12, '0')}`,
        sku: `PV-TEST-${seq}`,
        options: {},
        price: product.productPrice,
        stockQuantity: product.stockQuantity,
      },
    ]
  ).map((v): ProductVariant => ({ ...v, tradeInCredit: v.tradeInCredit ?? null }));
  const prices = variants.map((v) => v.price);
  return {
    ...product,
    options: overrides.options ?? [],
    variants,
    priceRange: overrides.priceRange ?? { min: Math.min(...prices), max: Math.max(...prices) },
  };
}

/** A variant as makeTieredProduct takes it: its values, price and stock; the id and SKU are made up. */
export type VariantSpec = Pick<ProductVariant, 'options' | 'price' | 'stockQuantity'> &
  Partial<ProductVariant>;

/**
 * A product sold in tiers (issue 31), its variants in position order (the first is the default: the
 * spec's productPrice and stockQuantity are its). The options are the variants' names and values in the
 * order they first appear, unless `overrides.options` lists them (values no variant has, say).
 */
export function makeTieredProduct(variants: VariantSpec[], overrides: Partial<Product> = {}): Product {
  seq += 1;
  const made: ProductVariant[] = variants.map((v, index) => ({
    _id: `00000000-0000-4000-b000-${String(seq * 100 + index).padStart(12, '0')}`,
    sku: `PV-TIER-${seq}-${index}`,
    ...v,
    tradeInCredit: v.tradeInCredit ?? null,
  }));
  const options: ProductOption[] = [];
  for (const variant of made) {
    for (const [name, value] of Object.entries(variant.options)) {
      let option = options.find((o) => o.name === name);
      if (!option) options.push((option = { name, values: [] }));
      if (!option.values.includes(value)) option.values.push(value);
    }
  }
  const first = made[0];
  return makeProduct({
    productPrice: first?.price ?? 0,
    stockQuantity: first?.stockQuantity ?? 0,
    options,
    variants: made,
    ...overrides,
  });
}

export function makeProductList(
  products: Product[],
  overrides: Partial<ProductListResponse> = {},
): ProductListResponse {
  return { products, page: 1, totalPage: 1, total: products.length, ...overrides };
}

export function makeCartItem(overrides: Partial<CartItem> = {}): CartItem {
  seq += 1;
  return {
    product: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    name: `Cart Game ${seq}`,
    image: `/uploads/cart-${seq}.webp`,
    price: 19.99,
    countInStock: 5,
    qty: 1,
    ...overrides,
  };
}
