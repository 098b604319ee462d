import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Product, ProductFacets } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { makeProduct, makeProductList } from '../../test/factories';
import { renderWithProviders } from '../../test/render';
import { AddProductSection } from './AddProductSection';
import { PLATFORM_HINT } from './PlatformField';
import { UpdateProductSection } from './UpdateProductSection';
import { adminState, imageFile, jsonBody, stubObjectUrls } from './test-helpers';

/** Issue 33: a product's platform in Add Product and Update Product. */

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const FACETS: ProductFacets = {
  total: 3,
  categories: [{ value: 'retro-games', count: 3 }],
  platforms: [
    { value: 'Nintendo 64', count: 2 },
    { value: 'Super Nintendo', count: 1 },
  ],
  conditions: [],
  price: { min: 10, max: 40 },
  inStock: 3,
};

/** The shop's catalogue and facets, and the admin's writes (multipart adds, JSON updates). */
function serveShop(initial: Product[] = []) {
  let products = initial;
  const added: FormData[] = [];
  const updates: unknown[] = [];
  const mock = stubFetch(async (request, url) => {
    if (url.pathname === '/api/products/facets') return jsonResponse(FACETS);
    if (url.pathname === '/api/products') return jsonResponse(makeProductList(products));
    if (url.pathname === '/api/products/add-new' && request.method === 'POST') {
      added.push(await request.formData());
      return jsonResponse({ _id: 'new' }, 201);
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
  return { mock, added, updates };
}

type User = ReturnType<typeof userEvent.setup>;

async function fillNewProduct(user: User) {
  await user.type(screen.getByLabelText('Name'), 'Neon Drift 64');
  await user.type(screen.getByLabelText('Description'), 'An anti-gravity racer.');
  await user.type(screen.getByLabelText('Price'), '34.99');
  await user.type(screen.getByLabelText('Stock Quantity'), '3');
  await user.upload(screen.getByLabelText('Images'), imageFile('front.png'));
}

/** The values the Platform field's list offers. */
const offered = (input: HTMLElement) => {
  const list = document.getElementById(input.getAttribute('list') ?? '');
  return [...(list?.querySelectorAll('option') ?? [])].map((option) => option.value);
};

describe('Add Product: the platform (issue 33)', () => {
  it('offers the platforms in use once the field is focused, and sends the one typed, trimmed', async () => {
    stubObjectUrls();
    const { mock, added } = serveShop();
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    const platform = screen.getByLabelText('Platform');
    expect(platform).toHaveAccessibleDescription(PLATFORM_HINT);
    // Nothing is asked for until the admin reaches the field.
    expect(calledUrls(mock)).toEqual([]);
    await user.click(platform);
    await waitFor(() => expect(offered(platform)).toEqual(['Nintendo 64', 'Super Nintendo']));

    await user.type(platform, '  Nintendo 64 ');
    await fillNewProduct(user);
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    expect(await screen.findByText('Product added successfully!')).toBeInTheDocument();
    expect(added).toHaveLength(1);
    expect(added[0]!.get('platform')).toBe('Nintendo 64');
    expect(added[0]!.get('productName')).toBe('Neon Drift 64');
    // The form is cleared for the next product.
    expect(screen.getByLabelText('Platform')).toHaveValue('');
  });

  it('sends no platform when the field is left empty', async () => {
    stubObjectUrls();
    const { added } = serveShop();
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await fillNewProduct(user);
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    expect(await screen.findByText('Product added successfully!')).toBeInTheDocument();
    expect(added[0]!.has('platform')).toBe(false);
  });

  it('refuses a platform over 60 characters with the shared rule, sending nothing', async () => {
    stubObjectUrls();
    const { mock } = serveShop();
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await fillNewProduct(user);
    await user.type(screen.getByLabelText('Platform'), 'P'.repeat(61));
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    expect(await screen.findByText('Platform is at most 60 characters')).toBeInTheDocument();
    expect(calledUrls(mock).some((u) => u.startsWith('/api/products/add-new'))).toBe(false);
  });
});

describe('Update Product: the platform (issue 33)', () => {
  async function openEdit(user: User, name: string) {
    renderWithProviders(<UpdateProductSection />, { preloadedState: adminState });
    await user.click(await screen.findByRole('button', { name: `Edit ${name}` }));
    return screen.getByRole('dialog', { name: `Edit ${name}` });
  }

  it('shows the current platform and leaves it out of the request while it is unchanged', async () => {
    const game = makeProduct({ productName: 'Neon Drift 64', platform: 'Nintendo 64', productPrice: 30 });
    const { updates } = serveShop([game]);
    const user = userEvent.setup();
    const dialog = await openEdit(user, 'Neon Drift 64');
    const platform = within(dialog).getByLabelText('Platform');
    expect(platform).toHaveValue('Nintendo 64');
    // Spaces around it are no change.
    await user.type(platform, ' ');
    await user.clear(within(dialog).getByLabelText('Price'));
    await user.type(within(dialog).getByLabelText('Price'), '25');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(updates).toHaveLength(1);
    expect(updates[0]).not.toHaveProperty('platform');
    expect(updates[0]).toMatchObject({ productPrice: 25 });
  });

  it('sends a changed platform, trimmed, offering the ones in use', async () => {
    const game = makeProduct({ productName: 'Neon Drift 64', platform: 'Nintendo 64' });
    const { updates } = serveShop([game]);
    const user = userEvent.setup();
    const dialog = await openEdit(user, 'Neon Drift 64');
    const platform = within(dialog).getByLabelText('Platform');
    await user.clear(platform);
    await waitFor(() => expect(offered(platform)).toContain('Super Nintendo'));
    await user.type(platform, 'Super Nintendo ');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(updates).toEqual([expect.objectContaining({ platform: 'Super Nintendo' })]);
  });

  it("clears the platform by sending '', and gives a product without one its first", async () => {
    const game = makeProduct({ productName: 'Neon Drift 64', platform: 'Nintendo 64' });
    const board = makeProduct({ productName: 'Harbor Lanterns', productCategory: 'board-games' });
    const { updates } = serveShop([game, board]);
    const user = userEvent.setup();
    const dialog = await openEdit(user, 'Neon Drift 64');
    await user.clear(within(dialog).getByLabelText('Platform'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(updates).toEqual([expect.objectContaining({ platform: '' })]);

    await user.click(screen.getByRole('button', { name: 'Edit Harbor Lanterns' }));
    const second = screen.getByRole('dialog', { name: 'Edit Harbor Lanterns' });
    expect(within(second).getByLabelText('Platform')).toHaveValue('');
    await user.type(within(second).getByLabelText('Platform'), 'Tabletop');
    await user.click(within(second).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(updates[1]).toMatchObject({ platform: 'Tabletop' });
  });
});
