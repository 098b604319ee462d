import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderToString } from 'react-dom/server';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import type { ProductSuggestion } from '@pixel-vault/shared';
import { makeStore } from '../../app/store';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { SearchBox } from './SearchBox';

afterEach(() => vi.unstubAllGlobals());

let seq = 0;

/** One suggestion as GET /api/products/suggest answers it. */
function makeSuggestion(overrides: Partial<ProductSuggestion> = {}): ProductSuggestion {
  seq += 1;
  return {
    _id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    productName: `Test Game ${seq}`,
    productCategory: 'retro-games',
    platform: 'Nintendo 64',
    image: `/uploads/game-${seq}-card.webp`,
    price: 19.99,
    ...overrides,
  };
}

const metroid = makeSuggestion({ productName: 'Metroid', platform: 'NES', price: 24.5 });
const fusion = makeSuggestion({
  productName: 'Metroid Fusion',
  platform: null,
  image: null,
  productCategory: 'consoles',
});

/** The suggest endpoint answering `answer(q)`; every call is recorded. */
function stubSuggest(answer: (q: string) => ProductSuggestion[] = () => [metroid, fusion]) {
  return stubFetch((_request, url) =>
    url.pathname === '/api/products/suggest'
      ? jsonResponse(answer(url.searchParams.get('q') ?? ''))
      : jsonResponse({ message: 'Not found' }, 404),
  );
}

function renderBox() {
  const user = userEvent.setup();
  const { container } = renderWithProviders(
    <>
      <SearchBox />
      <p>Elsewhere on the page</p>
      <LocationProbe />
    </>,
    { route: '/shop/puzzles' },
  );
  const input = screen.getByRole('combobox', { name: 'Search the shop' });
  // The box's live region (the location probe is an <output>, a status too).
  const status = () => container.querySelector('p[role="status"]');
  return { user, input, status };
}

const location = () => screen.getByTestId('location').textContent;

describe('SearchBox (issue 33)', () => {
  it('is a GET form to /search on the server, so that Enter searches before the app starts', () => {
    const html = renderToString(
      <Provider store={makeStore()}>
        <MemoryRouter>
          <SearchBox />
        </MemoryRouter>
      </Provider>,
    );
    const page = document.createElement('div');
    page.innerHTML = html;
    const form = page.querySelector('form')!;
    expect(form).toHaveAttribute('action', '/search');
    expect(form).toHaveAttribute('method', 'get');
    expect(form).toHaveAttribute('role', 'search');
    const input = form.querySelector('input')!;
    expect(input).toHaveAttribute('name', 'q');
    expect(input).toHaveAttribute('role', 'combobox');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).toHaveAttribute('aria-autocomplete', 'list');
    expect(page.querySelector(`label[for="${input.id}"]`)).toHaveTextContent('Search the shop');
  });

  it('suggests products once typing pauses, from the second character, with image, name, platform and price', async () => {
    const mock = stubSuggest();
    const { user, input, status } = renderBox();
    expect(input).toHaveAttribute('aria-autocomplete', 'list');
    expect(input).toHaveAttribute('aria-expanded', 'false');

    await user.type(input, 'm');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calledUrls(mock)).toEqual([]);

    await user.type(input, 'etriod');
    const list = await screen.findByRole('listbox', { name: 'Suggestions' });
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(input).toHaveAttribute('aria-controls', list.id);
    // One call for the whole word: the box waits for a pause.
    expect(calledUrls(mock)).toEqual(['/api/products/suggest?q=metriod']);

    const [first, second] = within(list).getAllByRole('option');
    expect(first).toHaveAccessibleName('Metroid NES $24.50');
    expect(first!.querySelector('img')).toHaveAttribute('src', metroid.image);
    expect(first!.querySelector('img')).toHaveAttribute('alt', '');
    expect(second).toHaveAccessibleName('Metroid Fusion $19.99');
    expect(status()).toHaveTextContent('2 suggestions');
  });

  it('moves through the suggestions with Down and Up, wrapping, and opens the chosen one with Enter', async () => {
    stubSuggest();
    const { user, input } = renderBox();
    await user.type(input, 'metriod');
    await screen.findByRole('listbox');
    const options = screen.getAllByRole('option');

    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-activedescendant', options[0]!.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-activedescendant', options[1]!.id);
    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-activedescendant', options[0]!.id);
    await user.keyboard('{ArrowUp}');
    expect(input).toHaveAttribute('aria-activedescendant', options[1]!.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'false');
    expect(input).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(location()).toBe(`/shop/consoles/product/${fusion._id}`);
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).toHaveValue('');
  });

  it('goes to the search page with the text on Enter when no suggestion is chosen', async () => {
    stubSuggest();
    const { user, input } = renderBox();
    await user.type(input, '  neon drfit ');
    await screen.findByRole('listbox');
    await user.keyboard('{Enter}');
    expect(location()).toBe('/search?q=neon+drfit');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('does nothing on Enter with an empty box', async () => {
    stubSuggest();
    const { user, input } = renderBox();
    await user.type(input, '   {Enter}');
    expect(location()).toBe('/shop/puzzles');
  });

  it('closes the list on Escape, empties the box on a second Escape', async () => {
    stubSuggest();
    const { user, input } = renderBox();
    await user.type(input, 'metriod');
    await screen.findByRole('listbox');
    await user.keyboard('{ArrowDown}{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).not.toHaveAttribute('aria-activedescendant');
    expect(input).toHaveValue('metriod');
    await user.keyboard('{Escape}');
    expect(input).toHaveValue('');
    expect(input).toHaveFocus();
    // Down opens it again, once there is something to show.
    await user.type(input, 'metriod');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}{ArrowDown}');
    expect(await screen.findByRole('listbox')).toBeInTheDocument();
  });

  it('opens a suggestion that is clicked, and closes the list on a click outside or on Tab', async () => {
    stubSuggest();
    const { user, input } = renderBox();
    await user.type(input, 'metriod');
    await screen.findByRole('listbox');
    await user.click(screen.getByText('Elsewhere on the page'));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();

    await user.type(input, 's');
    await screen.findByRole('listbox');
    await user.tab();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();

    await user.type(input, 'x');
    await user.click(await screen.findByRole('option', { name: /^Metroid NES/ }));
    expect(location()).toBe(`/shop/retro-games/product/${metroid._id}`);
  });

  it('says "No products match" when nothing does, and shows no empty list', async () => {
    stubSuggest(() => []);
    const { user, input, status } = renderBox();
    await user.type(input, 'zzzz');
    expect(await screen.findByText('No products match', { selector: 'div > p' })).toBeVisible();
    expect(status()).toHaveTextContent('No products match');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
  });

  it("shows the server's message when the suggestions fail", async () => {
    stubFetch(() => jsonResponse({ message: 'Search is resting' }, 503));
    const { user, input, status } = renderBox();
    await user.type(input, 'metriod');
    expect(await screen.findByText('Error: Search is resting', { selector: 'div > p' })).toBeVisible();
    expect(status()).toHaveTextContent('Error: Search is resting');
  });

  it('says "Loading suggestions" politely only when an answer is slow', async () => {
    let answer: (response: Response) => void = () => {};
    stubFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { user, input, status } = renderBox();
    await user.type(input, 'metriod');
    // On screen at once; said only after a while, so that a quick answer is said alone.
    expect(await screen.findByText('Loading suggestions…', { selector: 'div > p' })).toBeVisible();
    expect(status()).toHaveTextContent(/^$/);
    await waitFor(() => expect(status()).toHaveTextContent('Loading suggestions…'));
    answer(jsonResponse([metroid]));
    await waitFor(() => expect(status()).toHaveTextContent(/^1 suggestion$/));
  });

  it('opens over the header from its icon on a phone, and gives the focus back when closed', async () => {
    stubSuggest();
    const { user, input } = renderBox();
    const toggle = screen.getByRole('button', { name: 'Search the shop' });
    const form = screen.getByRole('search', { name: 'Shop' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', form.id);
    expect(form).toHaveClass('hidden');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(form).not.toHaveClass('hidden');
    expect(form).toHaveClass('absolute', 'inset-0');
    expect(input).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Close search' }));
    expect(form).toHaveClass('hidden');
    expect(toggle).toHaveFocus();

    // Escape with nothing left to close or empty closes it too.
    await user.click(toggle);
    await user.keyboard('{Escape}');
    expect(form).toHaveClass('hidden');
    expect(toggle).toHaveFocus();
  });
});
