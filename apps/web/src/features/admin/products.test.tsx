import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Product } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { makeProduct, makeProductList } from '../../test/factories';
import { renderWithProviders } from '../../test/render';
import { RemoveProductSection } from './RemoveProductSection';
import { UpdateProductSection } from './UpdateProductSection';
import { adminState, jsonBody } from './test-helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The catalogue with a server-side, case-insensitive name search, plus the admin writes. */
function serveProducts(initial: Product[]) {
  let products = initial;
  const updates: unknown[] = [];
  const mock = stubFetch(async (request, url) => {
    if (url.pathname === '/api/products') {
      const q = url.searchParams.get('q')?.toLowerCase() ?? '';
      return jsonResponse(makeProductList(products.filter((p) => p.productName.toLowerCase().includes(q))));
    }
    const del = /^\/api\/products\/delete\/([^/]+)$/.exec(url.pathname);
    if (del && request.method === 'DELETE') {
      products = products.filter((p) => p._id !== del[1]);
      return jsonResponse({ message: 'Product removed' });
    }
    const upd = /^\/api\/products\/update\/([^/]+)$/.exec(url.pathname);
    if (upd && request.method === 'PUT') {
      const body = (await jsonBody(request)) as Partial<Product>;
      updates.push(body);
      products = products.map((p) => (p._id === upd[1] ? { ...p, ...body } : p));
      return jsonResponse(products.find((p) => p._id === upd[1]));
    }
    return jsonResponse({ message: 'Not found' }, 404);
  });
  return { mock, updates };
}

describe('Remove Product', () => {
  it('shows cards with first image, name and 2-decimal price, and searches by name', async () => {
    const tetris = makeProduct({
      productName: 'Tetris',
      productPrice: 12.5,
      productImage: ['/a.webp', '/b.webp'],
    });
    const { mock } = serveProducts([tetris, makeProduct({ productName: 'Zelda' })]);
    const user = userEvent.setup();
    renderWithProviders(<RemoveProductSection />, { preloadedState: adminState });
    const cards = within(await screen.findByRole('list', { name: 'Products' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByRole('img', { name: 'Tetris' })).toHaveAttribute('src', '/a.webp');
    expect(within(cards[0]!).getByText('$12.50')).toBeInTheDocument();

    await user.type(screen.getByPlaceholderText('Search for a product'), 'TETR');
    // While the search is pending, the old results are not offered for a click.
    expect(screen.queryByText('Zelda')).not.toBeInTheDocument();
    expect(await screen.findByText('Tetris')).toBeInTheDocument();
    expect(screen.queryByText('Zelda')).not.toBeInTheDocument();
    expect(calledUrls(mock)).toContain('/api/products?q=TETR&page=1&limit=100');
    await user.clear(screen.getByPlaceholderText('Search for a product'));
    await user.type(screen.getByPlaceholderText('Search for a product'), 'mario');
    expect(await screen.findByText('No products found')).toBeInTheDocument();
  });

  it('deletes only after the confirmation', async () => {
    const doomed = makeProduct({ productName: 'Doomed Cart' });
    const { mock } = serveProducts([doomed]);
    const user = userEvent.setup();
    renderWithProviders(<RemoveProductSection />, { preloadedState: adminState });
    await user.click(await screen.findByRole('button', { name: 'Delete Doomed Cart' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure you want to delete this product?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calledUrls(mock).some((u) => u.includes('/delete/'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Doomed Cart' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No products found')).toBeInTheDocument();
    expect(calledUrls(mock)).toContain(`/api/products/delete/${doomed._id}`);
  });
});

describe('Update Product', () => {
  it('edits name, price, stock and description in a modal that closes after saving', async () => {
    const game = makeProduct({ productName: 'Metroid', productPrice: 30, stockQuantity: 2 });
    const { updates } = serveProducts([game]);
    const user = userEvent.setup();
    renderWithProviders(<UpdateProductSection />, { preloadedState: adminState });
    await user.click(await screen.findByRole('button', { name: 'Edit Metroid' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Metroid' });
    const price = within(dialog).getByLabelText('Price');
    expect(price).toHaveValue(30);
    await user.clear(price);
    await user.type(price, '24.99');
    await user.clear(within(dialog).getByLabelText('Stock Quantity'));
    await user.type(within(dialog).getByLabelText('Stock Quantity'), '7');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(updates).toEqual([
      {
        productName: 'Metroid',
        productPrice: 24.99,
        stockQuantity: 7,
        productDescription: game.productDescription,
      },
    ]);
    expect(await screen.findByText('$24.99')).toBeInTheDocument();
  });

  it('Cancel closes without saving; a negative price is refused in the modal', async () => {
    const game = makeProduct({ productName: 'Metroid' });
    const { updates } = serveProducts([game]);
    const user = userEvent.setup();
    renderWithProviders(<UpdateProductSection />, { preloadedState: adminState });
    await user.click(await screen.findByRole('button', { name: 'Edit Metroid' }));
    let dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Metroid' }));
    dialog = screen.getByRole('dialog');
    await user.clear(within(dialog).getByLabelText('Price'));
    await user.type(within(dialog).getByLabelText('Price'), '-1');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Price must be 0 or more');
    expect(updates).toEqual([]);
  });
});
