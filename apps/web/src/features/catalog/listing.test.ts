import { describe, expect, it } from 'vitest';
import { makeTieredProduct } from '../../test/factories';
import {
  asListed,
  checkPrice,
  facetValues,
  filterChips,
  isRefined,
  listQuery,
  listingSearch,
  readListing,
  withoutFilters,
  type Listing,
} from './listing';

const read = (query: string, category?: Listing['category']) =>
  readListing(new URLSearchParams(query), category);

describe('a list in its URL (issue 33)', () => {
  it('reads every filter, the sort and the page, and writes them back in the one order', () => {
    const query =
      'q=zelda&platform=Nintendo+64&condition=Loose&inStock=true&minPrice=10&maxPrice=49.5&sort=price_asc&page=3';
    const listing = read(query, 'retro-games');
    expect(listing).toEqual({
      category: 'retro-games',
      q: 'zelda',
      platform: 'Nintendo 64',
      condition: 'Loose',
      inStock: true,
      minPrice: 10,
      maxPrice: 49.5,
      sort: 'price_asc',
      page: 3,
    });
    expect(listingSearch(listing, { categoryInPath: true })).toBe(`?${query}`);
    // The same list asked in another order is written in the one order: one URL, one cached page.
    const shuffled = read(
      'page=3&sort=price_asc&maxPrice=49.5&inStock=true&condition=Loose&minPrice=10&platform=Nintendo 64&q=zelda',
    );
    expect(listingSearch(shuffled, { categoryInPath: false })).toBe(`?${query}`);
  });

  it("keeps the search page's category as a filter, first as filterParams() has it", () => {
    const listing = read('q=metroid&category=consoles');
    expect(listing.category).toBe('consoles');
    expect(listingSearch(listing, { categoryInPath: false })).toBe('?category=consoles&q=metroid');
    // A category page's own category is its path, whatever the query says.
    expect(read('category=puzzles', 'consoles').category).toBe('consoles');
    expect(listingSearch(read('', 'consoles'), { categoryInPath: true })).toBe('');
  });

  it('leaves the default sort and the first page out of the URL', () => {
    expect(read('sort=name').sort).toBeUndefined();
    expect(read('q=zelda&sort=relevance').sort).toBeUndefined();
    // Relevance means nothing without a search text.
    expect(read('sort=relevance').sort).toBeUndefined();
    expect(read('q=zelda&sort=name').sort).toBe('name');
    expect(listingSearch({ ...read('q=zelda&sort=name'), q: '' }, { categoryInPath: true })).toBe('');
    expect(listingSearch(read('page=1'), { categoryInPath: true })).toBe('');
  });

  it('ignores what the API would refuse: an unknown sort or category, prices that are no amount or the wrong way round', () => {
    expect(read('sort=cheapest&category=toasters&page=-2&inStock=yes')).toMatchObject({
      sort: undefined,
      category: undefined,
      page: 1,
      inStock: false,
    });
    expect(read('minPrice=abc&maxPrice=-3')).toMatchObject({ minPrice: undefined, maxPrice: undefined });
    expect(read('minPrice=50&maxPrice=10')).toMatchObject({ minPrice: undefined, maxPrice: undefined });
    expect(read('minPrice=0').minPrice).toBe(0);
  });

  it("asks the API with the URL's list, the page size of the grid", () => {
    expect(listQuery(read('q=zel&inStock=true&page=2', 'retro-games'))).toEqual({
      category: 'retro-games',
      q: 'zel',
      platform: undefined,
      condition: undefined,
      inStock: true,
      minPrice: undefined,
      maxPrice: undefined,
      sort: undefined,
      page: 2,
      limit: 24,
    });
  });
});

describe('chosen filters as chips', () => {
  it('names each filter, and removing one keeps the others', () => {
    const listing = read('category=consoles&platform=Nintendo 64&condition=Loose&minPrice=10&inStock=true');
    const chips = filterChips(listing, { categoryPage: false });
    expect(chips.map((chip) => chip.label)).toEqual([
      'Category: Consoles',
      'Platform: Nintendo 64',
      'Condition: Loose',
      'Price: from $10.00',
      'In stock only',
    ]);
    expect({ ...listing, ...chips[1]!.without }).toMatchObject({ platform: undefined, condition: 'Loose' });
    // On a category page the category is no chip: it is the page.
    expect(filterChips(listing, { categoryPage: true })).toHaveLength(4);
    expect(filterChips(read('maxPrice=20'), { categoryPage: true })[0]!.label).toBe('Price: up to $20.00');
    expect(filterChips(read('minPrice=5&maxPrice=20'), { categoryPage: true })[0]!.label).toBe(
      'Price: $5.00 – $20.00',
    );
  });

  it('clears every filter but keeps the search and the sort; a refined list is no page of its own', () => {
    const listing = read('q=zel&platform=SNES&sort=newest&page=2', 'retro-games');
    const cleared = withoutFilters(listing, { categoryPage: true });
    expect(listingSearch(cleared, { categoryInPath: true })).toBe('?q=zel&sort=newest');
    expect(isRefined(read('page=2', 'retro-games'), { categoryPage: true })).toBe(false);
    expect(isRefined(read('sort=newest', 'retro-games'), { categoryPage: true })).toBe(true);
    expect(isRefined(read('inStock=true', 'retro-games'), { categoryPage: true })).toBe(true);
  });
});

describe('facet values', () => {
  it("offers the scope's values with the current counts, 0 for those the filters leave out, and the chosen one", () => {
    const scope = [
      { value: 'SNES', count: 4 },
      { value: 'Nintendo 64', count: 3 },
    ];
    expect(facetValues(scope, [{ value: 'SNES', count: 2 }], 'Game Boy')).toEqual([
      { value: 'Game Boy', count: 0 },
      { value: 'Nintendo 64', count: 0 },
      { value: 'SNES', count: 2 },
    ]);
  });
});

describe('a product as a filtered list shows it', () => {
  const tiers = makeTieredProduct([
    { options: { Condition: 'Loose' }, price: 24.49, stockQuantity: 3 },
    { options: { Condition: 'Complete in box' }, price: 59.99, stockQuantity: 0 },
    { options: { Condition: 'Complete in box' }, price: 64.99, stockQuantity: 2 },
  ]);

  it('is priced by its variants of the chosen condition, in stock when asked, as the server sorts it', () => {
    expect(asListed(tiers, { inStock: false })).toBe(tiers);
    const boxed = asListed(tiers, { condition: 'Complete in box', inStock: false });
    expect(boxed.priceRange).toEqual({ min: 59.99, max: 64.99 });
    expect(boxed.productPrice).toBe(59.99);
    const boxedInStock = asListed(tiers, { condition: 'Complete in box', inStock: true });
    expect(boxedInStock.priceRange).toEqual({ min: 64.99, max: 64.99 });
    expect(boxedInStock.variants).toHaveLength(1);
    expect(asListed(tiers, { inStock: true }).priceRange).toEqual({ min: 24.49, max: 64.99 });
  });
});

describe('the price range as typed', () => {
  it('takes dollar amounts, either bound alone, and says what is wrong otherwise', () => {
    expect(checkPrice('10', '49.99')).toEqual({ ok: true, minPrice: 10, maxPrice: 49.99 });
    expect(checkPrice('', ' 5 ')).toEqual({ ok: true, minPrice: undefined, maxPrice: 5 });
    expect(checkPrice('-1', '')).toEqual({
      ok: false,
      field: 'min',
      message: 'Min price cannot be negative',
    });
    expect(checkPrice('', '1.234')).toMatchObject({
      ok: false,
      field: 'max',
      message: 'Max price must be an amount in dollars, like 19.99',
    });
    expect(checkPrice('2000000', '')).toMatchObject({ message: 'Min price is at most $1,000,000.00' });
    expect(checkPrice('50', '10')).toEqual({
      ok: false,
      field: 'min',
      message: 'Min price ($50.00) is more than max price ($10.00): lower the min or raise the max',
    });
  });
});
