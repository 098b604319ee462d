import { count, ilike } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, type Product } from '@pixel-vault/shared';
import { productImages, products } from '../schema/index.js';
import { type TestContext, createTestContext, silentLog } from '../../test/context.js';
import { generatedProduct, seedGenerated } from './generated.js';

describe('generated products (issue 13: npm run db:seed -- --products N)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('names products the same way on every run, in every category, with sane prices and stock', () => {
    expect(generatedProduct(0)).toEqual(generatedProduct(0));
    expect(new Set(Array.from({ length: 8 }, (_, i) => generatedProduct(i).category))).toEqual(
      new Set(CATEGORIES),
    );
    const names = new Set(Array.from({ length: 5000 }, (_, i) => generatedProduct(i).name));
    expect(names.size).toBe(5000);
    for (let i = 0; i < 1000; i += 1) {
      const p = generatedProduct(i);
      expect(p.priceCents).toBeGreaterThan(0);
      expect(p.stock).toBeGreaterThanOrEqual(0);
      // Issue 33: retro games and consoles run on a platform and are sold by condition; the rest not.
      const graded = p.category === 'retro-games' || p.category === 'consoles';
      expect(p.platform !== null).toBe(graded);
      expect(p.variants.length > 1).toBe(graded);
      expect(p.variants[0]).toMatchObject({ priceCents: p.priceCents, stock: p.stock });
      if (graded) expect(p.options[0]?.values).toEqual(p.variants.map((v) => v.options.Condition));
    }
  });

  it('adds products until the catalogue holds the number asked for, then nothing', async () => {
    const added = await seedGenerated({ db: ctx.db, storage: ctx.storage, log: silentLog, total: 1500 });
    expect(added).toBe(1500);
    const [all] = await ctx.db.select({ n: count() }).from(products);
    expect(all?.n).toBe(1500);
    const [images] = await ctx.db.select({ n: count() }).from(productImages);
    expect(images?.n).toBe(1500);
    expect(await seedGenerated({ db: ctx.db, storage: ctx.storage, log: silentLog, total: 1500 })).toBe(0);
    expect(await seedGenerated({ db: ctx.db, storage: ctx.storage, log: silentLog, total: 1510 })).toBe(10);
  });

  it('is found by the API: name search (trigram index) and category pages', async () => {
    const target = generatedProduct(1234).name;
    const [row] = await ctx.db
      .select({ n: count() })
      .from(products)
      .where(ilike(products.name, `%${target}%`));
    expect(row?.n).toBe(1);
    const search = await ctx.app.inject({
      method: 'GET',
      url: `/api/products?q=${encodeURIComponent(target)}&page=1&limit=24`,
    });
    expect(search.statusCode).toBe(200);
    // Issue 33: the exact name first; names a typo away (other numbers of the same words) after it.
    expect(search.json<{ products: Product[] }>().products[0]?.productName).toBe(target);
    const page = await ctx.app.inject({
      method: 'GET',
      url: '/api/products?category=puzzles&page=2&limit=24',
    });
    const body = page.json<{ products: Product[]; total: number }>();
    expect(body.products).toHaveLength(24);
    expect(body.products.every((p) => p.productCategory === 'puzzles')).toBe(true);
    expect(body.total).toBeGreaterThan(300);
  });
});
