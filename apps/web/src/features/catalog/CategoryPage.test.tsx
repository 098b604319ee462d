import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { makeProduct, makeProductList } from '../../test/factories';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { CategoryRoute } from './CategoryPage';
import { listCalls } from './test-helpers';

afterEach(() => vi.unstubAllGlobals());

function renderCategory(route: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/" element={<p>Home page</p>} />
        <Route path="/shop/:category" element={<CategoryRoute />} />
      </Routes>
      <LocationProbe />
    </>,
    { route },
  );
}

describe('CategoryPage', () => {
  it('titles the page with the category in words and lists its products as links with prices', async () => {
    const product = makeProduct({
      productName: 'Zelda II',
      productPrice: 19.99,
      productCategory: 'retro-games',
    });
    const second = makeProduct({ productName: 'Metroid', productCategory: 'retro-games' });
    stubFetch(() => jsonResponse(makeProductList([product, second])));
    renderCategory('/shop/retro-games');
    expect(screen.getByRole('heading', { level: 1, name: 'Retro Games' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search Retro Games' })).toHaveAttribute(
      'placeholder',
      'Search Retro Games',
    );
    const card = await screen.findByRole('link', { name: /Zelda II/ });
    expect(card).toHaveAttribute('href', `/shop/retro-games/product/${product._id}`);
    expect(card).toHaveTextContent('$19.99');
    // The first card's image is fetched at once and first (the page's largest paint); the rest lazily.
    expect(screen.getByRole('img', { name: 'Zelda II' })).toHaveAttribute('loading', 'eager');
    expect(screen.getByRole('img', { name: 'Zelda II' })).toHaveAttribute('fetchpriority', 'high');
    expect(screen.getByRole('img', { name: 'Metroid' })).toHaveAttribute('loading', 'lazy');
    expect(screen.getByRole('img', { name: 'Metroid' })).not.toHaveAttribute('fetchpriority');
    expect(document.title).toBe('Retro Games — Pixel Vault');
  });

  it("shows each card's average rating and review count from the reviews (issue 14)", async () => {
    const rated = makeProduct({ productName: 'Zelda II', productRating: 4.3, reviewCount: 12 });
    const single = makeProduct({ productName: 'Metroid', productRating: 4, reviewCount: 1 });
    const unrated = makeProduct({ productName: 'Kid Icarus', productRating: 0, reviewCount: 0 });
    stubFetch(() => jsonResponse(makeProductList([rated, single, unrated])));
    renderCategory('/shop/retro-games');
    expect(
      await screen.findByRole('link', { name: /Zelda II.*Rated 4\.3 out of 5, 12 reviews/ }),
    ).toHaveTextContent('★ 4.3 (12)');
    expect(screen.getByRole('link', { name: /Metroid.*Rated 4\.0 out of 5, 1 review$/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Kid Icarus/ })).toHaveTextContent('No reviews yet');
  });

  it("says 'No products found' when nothing matches", async () => {
    stubFetch(() => jsonResponse(makeProductList([])));
    renderCategory('/shop/puzzles');
    expect(await screen.findByText('No products found')).toBeInTheDocument();
  });

  it("shows 'Error: {message}' with the server's message", async () => {
    stubFetch(() => jsonResponse({ message: 'Database is resting' }, 500));
    renderCategory('/shop/consoles');
    expect(await screen.findByText('Error: Database is resting')).toBeInTheDocument();
  });

  it('asks the server for the category, and searches by name once typing pauses', async () => {
    const user = userEvent.setup();
    const mock = stubFetch((_req, url) =>
      jsonResponse(
        makeProductList(url.searchParams.get('q') === 'zel' ? [makeProduct({ productName: 'Zelda' })] : []),
      ),
    );
    renderCategory('/shop/board-games');
    await screen.findByText('No products found');
    await user.type(screen.getByRole('searchbox'), 'zel');
    expect(await screen.findByRole('link', { name: /Zelda/ })).toBeInTheDocument();
    // One request for the page, one for the finished word: no request per keystroke.
    expect(listCalls(calledUrls(mock))).toEqual([
      '/api/products?category=board-games&page=1&limit=24',
      '/api/products?category=board-games&q=zel&page=1&limit=24',
    ]);
    expect(screen.getByTestId('location')).toHaveTextContent('/shop/board-games?q=zel');
  });

  it('pages with Prev and Next when there is more than one page', async () => {
    const user = userEvent.setup();
    const mock = stubFetch((_req, url) => {
      const page = Number(url.searchParams.get('page') ?? 1);
      return jsonResponse(
        makeProductList([makeProduct({ productName: `Page ${page} game` })], { page, totalPage: 2 }),
      );
    });
    renderCategory('/shop/retro-games');
    await screen.findByText('Page 1 game');
    expect(screen.getByRole('button', { name: 'Prev' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 game')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled());
    expect(calledUrls(mock)).toContain('/api/products?category=retro-games&page=2&limit=24');
  });

  it('sends an unknown category to the home page', () => {
    stubFetch(() => jsonResponse(makeProductList([])));
    renderCategory('/shop/toasters');
    expect(screen.getByText('Home page')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });
});
