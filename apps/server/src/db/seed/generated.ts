import { count, isNull, sql } from 'drizzle-orm';
import { CATEGORIES, type CategorySlug } from '@pixel-vault/shared';
import type { Storage } from '../../lib/storage.js';
import type { Database } from '../client.js';
import { defaultSku, productImages, productVariants, products } from '../schema/index.js';
import { renderBoxArt } from './box-art.js';
import { type SeedLog, boxArtKey } from './index.js';

/**
 * Generated products for benchmarks of large catalogues (issue 13: `npm run db:seed -- --products
 * 100000`). Names are made of words, so a name search finds some and not all; every generated product
 * shows one of a few box-art images per category, stored once, so 100,000 products cost no more disk
 * than a dozen images.
 */
export const GENERATED_ADJECTIVES = [
  'Pixel',
  'Turbo',
  'Retro',
  'Neon',
  'Cosmic',
  'Galactic',
  'Haunted',
  'Golden',
  'Crystal',
  'Thunder',
  'Shadow',
  'Lunar',
  'Arcade',
  'Mystic',
  'Iron',
  'Silver',
  'Crimson',
  'Atomic',
  'Electric',
  'Wild',
];
export const GENERATED_NOUNS = [
  'Racer',
  'Quest',
  'Dungeon',
  'Castle',
  'Kart',
  'Blaster',
  'Puzzle',
  'Kingdom',
  'Rally',
  'Tactics',
  'Saga',
  'Island',
  'Fortress',
  'Voyage',
  'Legends',
  'Arena',
  'Heroes',
  'Empire',
  'Odyssey',
  'Maze',
];
const EDITIONS = ['', ' Deluxe', ' Classic', ' II', ' III', ' Collector Edition', ' Junior', ' Pocket'];
const IMAGES_PER_CATEGORY = 3;
/** Issue 33: what generated retro games and consoles run on (searched and filtered by). */
export const GENERATED_PLATFORMS = [
  'Nintendo 64',
  'Super Nintendo',
  'NES',
  'Game Boy',
  'Game Boy Advance',
  'Sega Mega Drive',
  'Sega Saturn',
  'PlayStation',
  'PlayStation 2',
  'Neo Geo',
  'Atari 2600',
  'Dreamcast',
];
/** The conditions retro games are sold in, and what each costs beside the loose price. */
const CONDITIONS = [
  { value: 'Loose', percent: 100 },
  { value: 'Complete in box', percent: 180 },
  { value: 'New', percent: 400 },
];
const BATCH = 1000;

export interface GeneratedVariant {
  options: Record<string, string>;
  priceCents: number;
  stock: number;
}

export interface GeneratedProduct {
  name: string;
  description: string;
  category: CategorySlug;
  /** Retro games and consoles only (issue 33). */
  platform: string | null;
  /** The options and their variants (issue 31): retro games and consoles by Condition. */
  options: { name: string; values: string[] }[];
  variants: GeneratedVariant[];
  /** The default (first) variant's. */
  priceCents: number;
  stock: number;
}

/** The `index`th generated product: the same on every run, so benchmarks can name what they search. */
export function generatedProduct(index: number): GeneratedProduct {
  const adjective = GENERATED_ADJECTIVES[index % GENERATED_ADJECTIVES.length]!;
  const noun = GENERATED_NOUNS[Math.floor(index / GENERATED_ADJECTIVES.length) % GENERATED_NOUNS.length]!;
  const edition =
    EDITIONS[Math.floor(index / (GENERATED_ADJECTIVES.length * GENERATED_NOUNS.length)) % EDITIONS.length]!;
  const category = CATEGORIES[index % CATEGORIES.length]!;
  const priceCents = 499 + ((index * 7919) % 20_000);
  const stock = (index * 31) % 50;
  const graded = category === 'retro-games' || category === 'consoles';
  // Retro games in two or three conditions, consoles in two; the dearer ones scarcer, some sold out.
  const conditions = graded ? CONDITIONS.slice(0, category === 'consoles' ? 2 : 2 + (index % 2)) : [];
  const variants: GeneratedVariant[] = graded
    ? conditions.map((c, i) => ({
        options: { Condition: c.value },
        priceCents: Math.round((priceCents * c.percent) / 100),
        stock: i === 0 ? stock : (index * (7 + i)) % (4 - i),
      }))
    : [{ options: {}, priceCents, stock }];
  return {
    name: `${adjective} ${noun}${edition} #${index + 1}`,
    description: `${adjective} ${noun}${edition}: a generated product for large-catalogue benchmarks.`,
    category,
    platform: graded
      ? GENERATED_PLATFORMS[Math.floor(index / CATEGORIES.length) % GENERATED_PLATFORMS.length]!
      : null,
    options: graded ? [{ name: 'Condition', values: conditions.map((c) => c.value) }] : [],
    variants,
    priceCents,
    stock,
  };
}

/**
 * Adds generated products until the catalogue holds at least `total` (deleted ones not counted);
 * answers how many it added. In batches of 1,000, each in its own transaction.
 */
export async function seedGenerated({
  db,
  storage,
  log,
  total,
}: {
  db: Database;
  storage: Storage;
  log: SeedLog;
  total: number;
}): Promise<number> {
  const [existing] = await db.select({ n: count() }).from(products).where(isNull(products.deletedAt));
  const start = existing?.n ?? 0;
  if (start >= total) return 0;

  const art = new Map<string, string[]>();
  for (const slug of CATEGORIES) {
    const urls: string[] = [];
    for (let variant = 0; variant < IMAGES_PER_CATEGORY; variant += 1) {
      const name = `Generated ${slug}`;
      const svg = renderBoxArt({ name, category: slug }, variant);
      urls.push(await storage.put(boxArtKey(name, variant, svg), Buffer.from(svg), 'image/svg+xml'));
    }
    art.set(slug, urls);
  }

  for (let from = start; from < total; from += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, total - from) }, (_, i) => generatedProduct(from + i));
    await db.transaction(async (tx) => {
      const rows = await tx
        .insert(products)
        .values(
          batch.map(({ name, description, category, platform, options }) => ({
            name,
            description,
            category,
            platform,
            options,
          })),
        )
        .returning({ id: products.id });
      // The first variant is the default (issue 31): it holds the spec's price and stock.
      await tx.insert(productVariants).values(
        rows.flatMap((row, i) =>
          batch[i]!.variants.map((variant, position) => ({
            productId: row.id,
            position,
            sku: position === 0 ? defaultSku(row.id) : `${defaultSku(row.id)}-${position}`,
            options: variant.options,
            priceCents: variant.priceCents,
            stock: variant.stock,
          })),
        ),
      );
      await tx.insert(productImages).values(
        rows.map((row, i) => {
          const urls = art.get(batch[i]!.category) ?? [];
          return { productId: row.id, position: 0, url: urls[(from + i) % urls.length] ?? '' };
        }),
      );
    });
    if ((from - start) % 10_000 === 0)
      log.info(`Generated products: ${from + batch.length - start} of ${total - start}`);
  }
  // Fresh statistics, so the planner knows the catalogue's size, and the visibility map index-only
  // scans need (PGlite runs no autovacuum; the server's own hourly vacuum would come later).
  await db.execute(sql`vacuum (analyze) products`);
  await db.execute(sql`vacuum (analyze) product_images`);
  await db.execute(sql`vacuum (analyze) product_variants`);
  log.info(`Added ${total - start} generated products (the catalogue now holds ${total})`);
  return total - start;
}
