import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { makeProduct, makeProductList } from '../../test/factories';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { HomePage } from './HomePage';
import { pickRandom } from './random';

afterEach(() => vi.unstubAllGlobals());

describe('HomePage', () => {
  it('loads the product list on entry and shows six of them', async () => {
    const products = Array.from({ length: 10 }, (_, i) => makeProduct({ productName: `Game ${i}` }));
    const mock = stubFetch(() => jsonResponse(makeProductList(products)));
    renderWithProviders(<HomePage />);
    const heading = screen.getByRole('heading', { name: 'A few of our Favorites' });
    const section = heading.closest('section')!;
    expect(await within(section).findAllByRole('link')).toHaveLength(6);
    expect(calledUrls(mock)).toEqual(['/api/products?page=1&limit=100']);
  });

  it("shows 'Error: {message}' when the list cannot be loaded", async () => {
    stubFetch(() => jsonResponse({ message: 'Catalogue offline' }, 500));
    renderWithProviders(<HomePage />);
    expect(await screen.findByText('Error: Catalogue offline')).toBeInTheDocument();
  });
});

describe('pickRandom', () => {
  const items = Array.from({ length: 20 }, (_, i) => i);

  it('picks the wanted number of distinct items', () => {
    const picked = pickRandom(items, 6, 42);
    expect(picked).toHaveLength(6);
    expect(new Set(picked).size).toBe(6);
    picked.forEach((n) => expect(items).toContain(n));
  });

  it('is stable for one seed and differs between seeds', () => {
    expect(pickRandom(items, 6, 7)).toEqual(pickRandom(items, 6, 7));
    const draws = new Set([1, 2, 3, 4, 5].map((seed) => pickRandom(items, 6, seed).join()));
    expect(draws.size).toBeGreaterThan(1);
  });

  it('returns everything when there are fewer items than wanted', () => {
    expect(pickRandom([1, 2, 3], 6, 1).sort()).toEqual([1, 2, 3]);
  });
});
