import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { makeProduct, makeProductList } from '../../test/factories';
import { calledUrls } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { SearchPage } from './SearchPage';
import { makeFacets, stubCatalogue } from './test-helpers';

afterEach(() => vi.unstubAllGlobals());

function renderSearch(route: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/search" element={<SearchPage />} />
      </Routes>
      <LocationProbe />
    </>,
    { route },
  );
}

const location = () => screen.getByTestId('location').textContent;
const panel = () => within(screen.getByRole('complementary', { name: 'Filters' }));

describe('the search page (issue 33)', () => {
  it('lists what matches across the shop, with the count, relevance first, and the category as a filter', async () => {
    const user = userEvent.setup();
    const zelda = makeProduct({ productName: 'Zelda II', productCategory: 'retro-games' });
    const mock = stubCatalogue({
      list: () => makeProductList([zelda], { total: 1 }),
      facets: (params) =>
        makeFacets({
          total: params.has('category') ? 1 : 3,
          categories: [
            { value: 'consoles', count: 2 },
            { value: 'retro-games', count: 1 },
          ],
        }),
    });
    renderSearch('/search?q=zelda');
    expect(screen.getByRole('heading', { level: 1, name: 'Results for “zelda”' })).toBeInTheDocument();
    const results = await screen.findByRole('list', { name: 'Search results' });
    expect(within(results).getByRole('link', { name: /Zelda II/ })).toHaveAttribute(
      'href',
      `/shop/retro-games/product/${zelda._id}`,
    );
    expect(screen.getByText('1 product found')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('relevance');
    expect(document.title).toBe('Results for “zelda” — Pixel Vault');
    expect(calledUrls(mock)).toEqual(
      expect.arrayContaining(['/api/products?q=zelda&page=1&limit=24', '/api/products/facets?q=zelda']),
    );

    await user.click(await panel().findByRole('button', { name: 'Consoles, 2 products' }));
    expect(location()).toBe('/search?category=consoles&q=zelda');
    expect(
      await screen.findByRole('button', { name: 'Remove filter Category: Consoles' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(calledUrls(mock)).toContain('/api/products?category=consoles&q=zelda&page=1&limit=24'),
    );
  });

  it('says nothing matches, and how to find something', async () => {
    stubCatalogue({ list: () => makeProductList([]), facets: () => makeFacets() });
    renderSearch('/search?q=zzyzx');
    expect(await screen.findByText('No products match “zzyzx”')).toBeInTheDocument();
    expect(
      screen.getByText('Check the spelling, try a shorter or more general word, or browse a category.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Retro Games' })).toHaveAttribute('href', '/shop/retro-games');
  });

  it('asks for a search when there is none, calling nothing', async () => {
    const user = userEvent.setup();
    const mock = stubCatalogue({ list: () => makeProductList([makeProduct({ productName: 'Metroid' })]) });
    renderSearch('/search');
    expect(screen.getByRole('heading', { level: 1, name: 'Search' })).toBeInTheDocument();
    expect(screen.getByText('What are you looking for?')).toBeInTheDocument();
    expect(mock).not.toHaveBeenCalled();

    await user.type(screen.getByRole('searchbox', { name: 'Search all products' }), '  metroid {Enter}');
    expect(location()).toBe('/search?q=metroid');
    expect(await screen.findByRole('link', { name: /Metroid/ })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Results for “metroid”' })).toBeInTheDocument();
  });
});
