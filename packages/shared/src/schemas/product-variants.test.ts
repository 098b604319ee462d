import { describe, expect, it } from 'vitest';
import { CreateProductBody, UpdateProductBody } from './admin.js';
import { ProductVariantInput, variantsProblem } from './product-variants.js';

const OPTIONS = [
  { name: 'Condition', values: ['Loose', 'New'] },
  { name: 'Region', values: ['NTSC-U', 'PAL'] },
];
const v = (Condition: string, Region: string, sku?: string) => ({ options: { Condition, Region }, sku });

describe('variantsProblem (issue 31)', () => {
  it('accepts any subset of the combinations, each once', () => {
    expect(variantsProblem(OPTIONS, [v('Loose', 'PAL'), v('New', 'NTSC-U')])).toBeNull();
    expect(variantsProblem([], [{ options: {} }])).toBeNull();
  });

  it('names what is wrong', () => {
    expect(variantsProblem([OPTIONS[0]!, { ...OPTIONS[0]!, name: 'condition' }], [])).toBe(
      'Option "condition" is there twice',
    );
    expect(variantsProblem([{ name: 'Region', values: ['PAL', 'pal'] }], [])).toBe(
      'Option "Region" has the value "pal" twice',
    );
    expect(variantsProblem(OPTIONS, [v('Loose', 'PAL'), v('Loose', 'PAL')])).toBe(
      'Variant 2 is the same combination as an earlier one',
    );
    expect(variantsProblem(OPTIONS, [v('Loose', 'PAL', 'A-1'), v('New', 'PAL', 'a-1')])).toBe(
      'SKU a-1 is there twice',
    );
    expect(
      variantsProblem(OPTIONS, [{ options: { Condition: 'Loose', Region: 'PAL', Colour: 'Red' } }]),
    ).toBe('Variant 1 has a value for "Colour", which is not an option');
    expect(variantsProblem([], [{ options: {} }, { options: {} }])).toContain(
      'A product without options has one variant',
    );
  });
});

describe('CreateProductBody and UpdateProductBody (issue 31)', () => {
  const base = { productName: 'Game', productCategory: 'retro-games', productDescription: 'Fun.' };

  it("read options and variants from JSON text, and keep the spec's rules without them", () => {
    const parsed = CreateProductBody.parse({
      ...base,
      options: JSON.stringify(OPTIONS),
      variants: JSON.stringify([{ ...v('Loose', 'PAL'), price: '12.50', stockQuantity: '2' }]),
    });
    expect(parsed.variants).toEqual([
      { options: { Condition: 'Loose', Region: 'PAL' }, price: 12.5, stockQuantity: 2 },
    ]);
    expect(CreateProductBody.safeParse({ ...base, productPrice: '5', stockQuantity: '1' }).success).toBe(
      true,
    );
    expect(CreateProductBody.safeParse({ ...base, stockQuantity: '1' }).error?.issues[0]?.message).toBe(
      'Price is required',
    );
  });

  it('trims the names and values of a variant’s options, as it trims the options’', () => {
    const parsed = UpdateProductBody.parse({
      options: [{ name: ' Condition ', values: [' Loose '] }],
      variants: [{ options: { ' Condition': 'Loose ' }, price: 1, stockQuantity: 1 }],
    });
    expect(parsed.options).toEqual([{ name: 'Condition', values: ['Loose'] }]);
    expect(parsed.variants?.[0]?.options).toEqual({ Condition: 'Loose' });
  });

  it('refuses spec fields that contradict the first variant', () => {
    const variants = [{ ...v('Loose', 'PAL'), price: 12.5, stockQuantity: 2 }];
    expect(UpdateProductBody.safeParse({ variants, productPrice: 12.5, stockQuantity: 2 }).success).toBe(
      true,
    );
    expect(UpdateProductBody.safeParse({ variants, stockQuantity: 3 }).error?.issues[0]?.message).toContain(
      'Stock is the first variant',
    );
    expect(UpdateProductBody.safeParse({}).error?.issues[0]?.message).toBe('Nothing to update');
  });
});

describe("a variant's trade-in credit (issue 35)", () => {
  const variant = (tradeInCredit?: unknown) => ({
    options: {},
    price: 40,
    stockQuantity: 1,
    ...(tradeInCredit === undefined ? {} : { tradeInCredit }),
  });
  const parsed = (tradeInCredit?: unknown) => ProductVariantInput.safeParse(variant(tradeInCredit));

  it('reads dollars as a form or JSON sends them; empty or null is not bought, left out is left out', () => {
    expect(parsed(18).data?.tradeInCredit).toBe(18);
    expect(parsed('18.50').data?.tradeInCredit).toBe(18.5);
    expect(parsed('').data?.tradeInCredit).toBeNull();
    expect(parsed(null).data?.tradeInCredit).toBeNull();
    expect(parsed().data).not.toHaveProperty('tradeInCredit');
  });

  it('refuses a negative, non-numeric or sub-cent credit, saying why', () => {
    expect(parsed(-1).error?.issues[0]?.message).toBe('Trade-in credit must be 0 or more');
    expect(parsed('lots').error?.issues[0]?.message).toBe('Trade-in credit must be a number');
    expect(parsed('1.234').success).toBe(false);
  });
});
