import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useNavigate } from 'react-router';
import { makeProduct, makeProductList } from '../../test/factories';
import { calledUrls } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { CategoryRoute } from './CategoryPage';
import { listCalls, makeFacets, stubCatalogue } from './test-helpers';

afterEach(() => vi.unstubAllGlobals());

function BackButton() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => void navigate(-1)}>
      Browser back
    </button>
  );
}

function renderCategory(route: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/shop/:category" element={<CategoryRoute />} />
      </Routes>
      <LocationProbe />
      <BackButton />
    </>,
    { route },
  );
}

const location = () => screen.getByTestId('location').textContent;
/** The list's count, said politely after each change. */
const countLine = () => screen.getByText(/^\d+ products? found$/);
const panel = () => within(screen.getByRole('complementary', { name: 'Filters' }));

/** Retro games: the category's facets (searched or not), and fewer of each once a filter is chosen. */
function stubRetroGames() {
  return stubCatalogue({
    list: (params) =>
      makeProductList([makeProduct({ productName: `Game for ${params.toString()}` })], {
        total: 3,
        page: Number(params.get('page') ?? 1),
        totalPage: 4,
      }),
    facets: (params) =>
      ['platform', 'condition', 'inStock'].every((name) => !params.has(name))
        ? makeFacets({
            total: 12,
            platforms: [
              { value: 'Nintendo 64', count: 5 },
              { value: 'SNES', count: 7 },
            ],
            conditions: [
              { value: 'Loose', count: 10 },
              { value: 'New', count: 2 },
            ],
            price: { min: 9.99, max: 249.99 },
            inStock: 9,
          })
        : makeFacets({
            total: 3,
            platforms: [{ value: 'Nintendo 64', count: 3 }],
            conditions: [{ value: 'Loose', count: 3 }],
            price: { min: 19.99, max: 89.99 },
            inStock: 0,
          }),
  });
}

describe('filters and sort of a category page (issue 33)', () => {
  it('shows each value with its count, and disables those that would give nothing unless chosen', async () => {
    stubRetroGames();
    renderCategory('/shop/retro-games');
    expect(await panel().findByRole('button', { name: 'SNES, 7 products' })).toBeEnabled();
    expect(panel().getByRole('button', { name: 'Nintendo 64, 5 products' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(panel().getByRole('button', { name: 'New, 2 products' })).toBeEnabled();
    expect(panel().getByRole('checkbox', { name: 'In stock only, 9 products' })).not.toBeChecked();
    expect(await screen.findByText(/^\d+ products? found$/)).toHaveTextContent('3 products found');
  });

  it('keeps values the chosen filters leave out, at 0 and disabled; the chosen one stays pressable', async () => {
    stubRetroGames();
    renderCategory('/shop/retro-games?platform=Nintendo+64');
    expect(await panel().findByRole('button', { name: 'SNES, 0 products' })).toBeDisabled();
    expect(panel().getByRole('button', { name: 'New, 0 products' })).toBeDisabled();
    const chosen = panel().getByRole('button', { name: 'Nintendo 64, 3 products' });
    expect(chosen).toHaveAttribute('aria-pressed', 'true');
    expect(chosen).toBeEnabled();
    // No product in stock among them: "In stock only" gives nothing.
    expect(panel().getByRole('checkbox', { name: /In stock only/ })).toBeDisabled();
  });

  it('puts a chosen filter in the URL from the first page, as a new entry that Back undoes', async () => {
    const user = userEvent.setup();
    const mock = stubRetroGames();
    renderCategory('/shop/retro-games?q=zel&page=2');
    await user.click(await panel().findByRole('button', { name: 'SNES, 7 products' }));
    expect(location()).toBe('/shop/retro-games?q=zel&platform=SNES');
    await user.click(panel().getByRole('button', { name: /^Loose/ }));
    expect(location()).toBe('/shop/retro-games?q=zel&platform=SNES&condition=Loose');
    await waitFor(() =>
      expect(listCalls(calledUrls(mock))).toContain(
        '/api/products?category=retro-games&q=zel&platform=SNES&condition=Loose&page=1&limit=24',
      ),
    );
    expect(calledUrls(mock)).toContain(
      '/api/products/facets?category=retro-games&q=zel&platform=SNES&condition=Loose',
    );

    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    expect(location()).toBe('/shop/retro-games?q=zel&platform=SNES');
    await waitFor(() =>
      expect(panel().getByRole('button', { name: /^Loose/ })).toHaveAttribute('aria-pressed', 'false'),
    );
    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    expect(location()).toBe('/shop/retro-games?q=zel&page=2');
  });

  it('sorts from the first page, offering relevance only for a search', async () => {
    const user = userEvent.setup();
    const mock = stubRetroGames();
    renderCategory('/shop/retro-games?inStock=true&page=3');
    const sort = await screen.findByRole('combobox', { name: 'Sort by' });
    expect(sort).toHaveValue('name');
    expect(
      within(sort)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Name', 'Price: low to high', 'Price: high to low', 'Newest', 'Top rated']);
    await user.selectOptions(sort, 'Price: low to high');
    expect(location()).toBe('/shop/retro-games?inStock=true&sort=price_asc');
    await waitFor(() =>
      expect(calledUrls(mock)).toContain(
        '/api/products?category=retro-games&inStock=true&sort=price_asc&page=1&limit=24',
      ),
    );
    // Back to the default order: no sort in the URL.
    await user.selectOptions(sort, 'Name');
    expect(location()).toBe('/shop/retro-games?inStock=true');

    await user.type(screen.getByRole('searchbox', { name: 'Search Retro Games' }), 'zel');
    await waitFor(() => expect(location()).toBe('/shop/retro-games?q=zel&inStock=true'));
    expect(sort).toHaveValue('relevance');
    expect(within(sort).getByRole('option', { name: 'Relevance' })).toBeInTheDocument();
  });

  it('shows chosen filters as chips: one removed keeps the others, "Clear all" removes them all', async () => {
    const user = userEvent.setup();
    stubRetroGames();
    renderCategory('/shop/retro-games?platform=Nintendo+64&condition=Loose&minPrice=10&sort=newest');
    const chips = screen.getByRole('list', { name: 'Chosen filters' });
    expect(
      within(chips)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Platform: Nintendo 64×', 'Condition: Loose×', 'Price: from $10.00×']);
    await user.click(screen.getByRole('button', { name: 'Remove filter Platform: Nintendo 64' }));
    expect(location()).toBe('/shop/retro-games?condition=Loose&minPrice=10&sort=newest');
    // Focus stays in the row, on the chip that took its place.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Remove filter Condition: Loose' })).toHaveFocus(),
    );
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(location()).toBe('/shop/retro-games?sort=newest');
    expect(screen.queryByRole('list', { name: 'Chosen filters' })).not.toBeInTheDocument();
    await waitFor(() => expect(countLine()).toHaveFocus());
  });

  it('applies a price range on submit or when an input is left, and explains one it cannot', async () => {
    const user = userEvent.setup();
    stubRetroGames();
    renderCategory('/shop/retro-games?page=2');
    const min = await panel().findByRole('spinbutton', { name: 'Min ($)' });
    const max = panel().getByRole('spinbutton', { name: 'Max ($)' });
    // The range's ends come with the facets, which may answer after the panel is drawn.
    await waitFor(() => expect(min).toHaveAttribute('placeholder', '9'));
    expect(max).toHaveAttribute('placeholder', '249');
    await user.type(min, '50');
    // Leaving the input applies it, from the first page.
    await user.type(max, '10');
    expect(location()).toBe('/shop/retro-games?minPrice=50');
    await user.click(panel().getByRole('button', { name: 'Apply' }));
    expect(await panel().findByRole('alert')).toHaveTextContent(
      'Min price ($50.00) is more than max price ($10.00): lower the min or raise the max',
    );
    expect(min).toHaveAttribute('aria-invalid', 'true');
    expect(min).toHaveAccessibleDescription(/Min price \(\$50\.00\) is more than max price/);
    expect(location()).toBe('/shop/retro-games?minPrice=50');

    await user.clear(max);
    await user.type(max, '60');
    await user.tab();
    expect(location()).toBe('/shop/retro-games?minPrice=50&maxPrice=60');
    expect(panel().queryByRole('alert')).not.toBeInTheDocument();
    expect(min).not.toHaveAttribute('aria-invalid');

    await user.clear(min);
    await user.type(min, '-5{Enter}');
    expect(await panel().findByRole('alert')).toHaveTextContent('Min price cannot be negative');
    expect(location()).toBe('/shop/retro-games?minPrice=50&maxPrice=60');

    // The chip removed: the inputs show the range as applied (none), the error gone.
    await user.click(screen.getByRole('button', { name: 'Remove filter Price: $50.00 – $60.00' }));
    expect(location()).toBe('/shop/retro-games');
    expect(min).toHaveValue(null);
    expect(max).toHaveValue(null);
    expect(panel().queryByRole('alert')).not.toBeInTheDocument();
  });

  it('opens the filters in a dialog with the count of chosen ones, which shows the results and closes', async () => {
    const user = userEvent.setup();
    stubRetroGames();
    renderCategory('/shop/retro-games?inStock=true');
    await user.click(await screen.findByRole('button', { name: 'Filters (1)' }));
    const dialog = screen.getByRole('dialog', { name: 'Filters' });
    expect(within(dialog).getByRole('button', { name: 'Close filters' })).toHaveFocus();
    await user.click(await within(dialog).findByRole('button', { name: 'Loose, 3 products' }));
    expect(location()).toBe('/shop/retro-games?condition=Loose&inStock=true');
    expect(await within(dialog).findByRole('button', { name: 'Show 3 results' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Focus goes back to the button, which now counts two.
    expect(screen.getByRole('button', { name: 'Filters (2)' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Filters (2)' }));
    await user.click(screen.getByRole('button', { name: 'Show 3 results' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says what to do when the filters leave nothing', async () => {
    stubCatalogue({ list: () => makeProductList([]), facets: () => makeFacets() });
    renderCategory('/shop/puzzles?inStock=true');
    expect(await screen.findByText('No products found')).toBeInTheDocument();
    expect(screen.getByText('Try removing a filter above, or clear them all.')).toBeInTheDocument();
    expect(countLine()).toHaveTextContent('0 products found');
  });
});
