import { describe, expect, it } from 'vitest';
import { MAX_PRODUCT_VARIANTS } from '@pixel-vault/shared';
import { makeProduct, makeTieredProduct } from '../../test/factories';
import {
  addOption,
  addValues,
  draftFromProduct,
  emptyDraft,
  generateCombinations,
  moveRow,
  pricingToSend,
  removeOption,
  removeRow,
  removeValue,
  renameOption,
  rowTitle,
  updateRow,
  variantProblems,
  variantsToSend,
  type VariantsDraft,
} from './variant-draft';

/** A draft with the options given, built the way the editor builds it. */
function withOptions(options: Record<string, string>, from: VariantsDraft = emptyDraft()) {
  let draft = from;
  for (const [name, values] of Object.entries(options)) {
    const added = addOption(draft);
    draft = renameOption(added.draft, added.key!, name);
    draft = addValues(draft, added.key!, values).draft;
  }
  return draft;
}

function generated(draft: VariantsDraft) {
  const result = generateCombinations(draft);
  if ('problem' in result) throw new Error(result.problem);
  return result;
}

const titles = (draft: VariantsDraft) => draft.rows.map((row) => rowTitle(draft, row));

function zelda() {
  return makeTieredProduct([
    { options: { Condition: 'Loose', Region: 'NTSC-U' }, price: 34.5, stockQuantity: 3, sku: 'Z2-L-US' },
    {
      options: { Condition: 'Complete in box', Region: 'PAL' },
      price: 150,
      stockQuantity: 1,
      sku: 'Z2-C-EU',
    },
  ]);
}

describe('variant draft', () => {
  it('gives an option’s first value to every row, so a product’s one variant becomes its first tier', () => {
    const product = makeProduct({ productPrice: 12, stockQuantity: 4 });
    const draft = withOptions({ Condition: 'Loose, Complete in box' }, draftFromProduct(product));
    expect(draft.rows).toHaveLength(1);
    expect(draft.rows[0]).toMatchObject({ _id: product.variants[0]!._id, price: '12', stockQuantity: '4' });
    expect(titles(draft)).toEqual(['Loose']);
  });

  it('generates every missing combination in the options’ order, keeping the rows there and what they hold', () => {
    let draft = withOptions({ Condition: 'Loose, Complete in box', Region: 'NTSC-U, PAL' });
    draft = updateRow(draft, draft.rows[0]!.key, { sku: 'L-US', price: '20', stockQuantity: '2' });
    const { draft: next, added } = generated(draft);
    expect(added).toBe(3);
    expect(titles(next)).toEqual([
      'Loose / NTSC-U',
      'Loose / PAL',
      'Complete in box / NTSC-U',
      'Complete in box / PAL',
    ]);
    expect(next.rows[0]).toMatchObject({ sku: 'L-US', price: '20', stockQuantity: '2' });
    expect(next.rows.slice(1).map((r) => [r.sku, r.price, r.stockQuantity])).toEqual([
      ['', '', ''],
      ['', '', ''],
      ['', '', ''],
    ]);
    // Nothing missing: nothing added, nothing taken away.
    expect(generated(next)).toMatchObject({ added: 0, draft: next });
  });

  it('appends only the combinations of a value added later, after the rows there', () => {
    let draft = generated(withOptions({ Condition: 'Loose, New' })).draft;
    draft = moveRow(draft, draft.rows[1]!.key, -1);
    const key = draft.options[0]!.key;
    draft = generated(addValues(draft, key, 'Complete in box').draft).draft;
    expect(titles(draft)).toEqual(['New', 'Loose', 'Complete in box']);
  });

  it('refuses to generate while an option has no values, or past the variant limit', () => {
    const empty = addOption(withOptions({ Condition: 'Loose' })).draft;
    expect(generateCombinations(empty)).toEqual({ problem: 'Give every option at least one value first' });
    const many = Array.from({ length: 11 }, (_, i) => `V${i}`).join(',');
    const big = withOptions({ A: many, B: many });
    expect(generateCombinations(big)).toEqual({
      problem: `That makes 121 variants; a product has at most ${MAX_PRODUCT_VARIANTS}. Remove some values first.`,
    });
  });

  it('adds typed values once each, case aside, and says which were there already', () => {
    const draft = withOptions({ Condition: 'Loose' });
    const key = draft.options[0]!.key;
    const result = addValues(draft, key, ' loose , New,, Complete in box ,new');
    expect(result.added).toEqual(['New', 'Complete in box']);
    expect(result.repeated).toEqual(['loose', 'new']);
    expect(result.draft.options[0]!.values).toEqual(['Loose', 'New', 'Complete in box']);
  });

  it('takes a removed value’s rows with it, and merges rows that an option’s removal makes the same', () => {
    const draft = generated(
      withOptions({ Condition: 'Loose, Complete in box', Region: 'NTSC-U, PAL' }),
    ).draft;
    const [condition, region] = draft.options;
    const noPal = removeValue(draft, region!.key, 'PAL');
    expect(noPal.removed).toBe(2);
    expect(titles(noPal.draft)).toEqual(['Loose / NTSC-U', 'Complete in box / NTSC-U']);

    const withPrices = draft.rows.reduce((d, row, i) => updateRow(d, row.key, { price: String(i) }), draft);
    const noCondition = removeOption(withPrices, condition!.key);
    expect(noCondition.removed).toBe(2);
    expect(titles(noCondition.draft)).toEqual(['NTSC-U', 'PAL']);
    expect(noCondition.draft.rows.map((r) => r.price)).toEqual(['0', '1']);

    // No options left: one variant, the first, whose price and stock the spec's fields then show.
    const none = removeOption(noCondition.draft, region!.key);
    expect(none.draft.options).toEqual([]);
    expect(none.draft.rows).toEqual([{ ...noCondition.draft.rows[0], values: {} }]);
  });

  it('keeps every row’s values when an option is renamed', () => {
    const draft = generated(withOptions({ Condition: 'Loose, New' })).draft;
    const renamed = renameOption(draft, draft.options[0]!.key, 'State');
    expect(variantsToSend(renamed).map((v) => v.options)).toEqual([{ State: 'Loose' }, { State: 'New' }]);
  });

  it('moves rows up and down within the list, and never removes the last one', () => {
    const draft = generated(withOptions({ Condition: 'Loose, Complete in box, New' })).draft;
    const [loose, cib, fresh] = draft.rows;
    expect(titles(moveRow(draft, fresh!.key, -1))).toEqual(['Loose', 'New', 'Complete in box']);
    expect(moveRow(draft, loose!.key, -1)).toBe(draft);
    expect(moveRow(draft, fresh!.key, 1)).toBe(draft);
    const one = removeRow(removeRow(draft, loose!.key), cib!.key);
    expect(titles(one)).toEqual(['New']);
    expect(removeRow(one, fresh!.key)).toBe(one);
  });

  it("loads a product's options and variants with their ids, and sends them back as they were", () => {
    const product = zelda();
    const draft = draftFromProduct(product);
    expect(draft.options.map((o) => [o.name, o.values])).toEqual([
      ['Condition', ['Loose', 'Complete in box']],
      ['Region', ['NTSC-U', 'PAL']],
    ]);
    expect(titles(draft)).toEqual(['Loose / NTSC-U', 'Complete in box / PAL']);
    expect(pricingToSend(draft, true)).toEqual({
      options: product.options,
      variants: product.variants.map((v) => ({
        ...v,
        price: String(v.price),
        stockQuantity: String(v.stockQuantity),
        // Issue 35: as the form shows it, empty for not bought.
        tradeInCredit: '',
      })),
    });
  });

  it('sends the spec’s price and stock without options, and the one variant left when there were options', () => {
    const draft = emptyDraft();
    const plain = updateRow(draft, draft.rows[0]!.key, { price: '9.5', stockQuantity: '2' });
    expect(pricingToSend(plain)).toEqual({ productPrice: '9.5', stockQuantity: '2' });

    const product = zelda();
    let tiered = draftFromProduct(product);
    for (const option of tiered.options) tiered = removeOption(tiered, option.key).draft;
    expect(pricingToSend(tiered, true)).toEqual({
      productPrice: '34.5',
      stockQuantity: '3',
      options: [],
      variants: [
        {
          _id: product.variants[0]!._id,
          sku: 'Z2-L-US',
          options: {},
          price: '34.5',
          stockQuantity: '3',
          tradeInCredit: '',
        },
      ],
    });
  });

  it("loads each variant's trade-in credit, sends it as typed, and checks it (issue 35)", () => {
    const product = makeTieredProduct([
      { options: { Condition: 'Loose' }, price: 45, stockQuantity: 2, sku: 'SM64-L', tradeInCredit: 18 },
      { options: { Condition: 'Boxed' }, price: 120, stockQuantity: 1, sku: 'SM64-B', tradeInCredit: null },
    ]);
    let draft = draftFromProduct(product);
    expect(draft.rows.map((r) => r.tradeInCredit)).toEqual(['18', '']);
    draft = updateRow(draft, draft.rows[1]!.key, { tradeInCredit: '48.50' });
    expect(variantsToSend(draft).map((v) => v.tradeInCredit)).toEqual(['18', '48.50']);
    draft = updateRow(draft, draft.rows[0]!.key, { tradeInCredit: '-2' });
    draft = updateRow(draft, draft.rows[1]!.key, { tradeInCredit: 'abc' });
    expect(variantProblems(draft)).toEqual([
      'Loose: Trade-in credit must be 0 or more',
      'Boxed: Trade-in credit must be a number',
    ]);
  });

  it('sends the one variant of a product without options only when its credit is given or changed (issue 35)', () => {
    const blank = emptyDraft();
    const priced = updateRow(blank, blank.rows[0]!.key, {
      price: '12',
      stockQuantity: '4',
      tradeInCredit: '4.5',
    });
    expect(pricingToSend(priced)).toEqual({
      productPrice: '12',
      stockQuantity: '4',
      variants: [{ sku: '', options: {}, price: '12', stockQuantity: '4', tradeInCredit: '4.5' }],
    });
    expect(variantProblems(updateRow(priced, priced.rows[0]!.key, { tradeInCredit: '-1' }))).toEqual([
      'Trade-in credit must be 0 or more',
    ]);

    // A product that is bought: clearing the credit is sent; one that is not, left as it is, sends none.
    const bought = makeProduct({ productPrice: 12, stockQuantity: 4 });
    bought.variants[0]!.tradeInCredit = 4.5;
    const draft = draftFromProduct(bought);
    expect(draft.rows[0]!.tradeInCredit).toBe('4.5');
    const cleared = updateRow(draft, draft.rows[0]!.key, { tradeInCredit: '' });
    expect(pricingToSend(cleared)).toMatchObject({
      variants: [{ _id: bought.variants[0]!._id, tradeInCredit: '' }],
    });
    expect(pricingToSend(draftFromProduct(makeProduct({ productPrice: 3, stockQuantity: 1 })))).toEqual({
      productPrice: '3',
      stockQuantity: '1',
    });
  });

  it('names the variant or option each problem is about, and adds variantsProblem’s verdict', () => {
    let draft = generated(withOptions({ Condition: 'Loose, New' })).draft;
    draft = updateRow(draft, draft.rows[0]!.key, { price: '10', stockQuantity: '1' });
    draft = updateRow(draft, draft.rows[1]!.key, { price: '-1', stockQuantity: '' });
    expect(variantProblems(draft)).toEqual([
      'New: Variant price must be 0 or more',
      'New: Variant stock is required',
    ]);

    draft = updateRow(draft, draft.rows[1]!.key, { price: '12', stockQuantity: '0' });
    expect(variantProblems(draft)).toEqual([]);
    const sameSku = draft.rows.reduce((d, row) => updateRow(d, row.key, { sku: 'zelda-1' }), draft);
    expect(variantProblems(sameSku)).toEqual(['SKU zelda-1 is there twice']);
    const badSku = updateRow(draft, draft.rows[0]!.key, { sku: 'has space' });
    expect(variantProblems(badSku)).toEqual([
      'Loose: A SKU holds letters, digits and . _ - / only, and starts with a letter or digit',
    ]);

    const unnamed = addOption(draft).draft;
    expect(variantProblems(unnamed)).toEqual([
      'Option 2: Option name is required',
      'Option 2: An option needs at least one value',
    ]);
    const twice = withOptions({ condition: 'Boxed' }, draft);
    expect(variantProblems(twice)).toEqual(['Option "condition" is there twice']);
  });

  it('has no variant problems without options: the product’s Price and Stock are checked as before', () => {
    expect(variantProblems(emptyDraft())).toEqual([]);
  });
});
