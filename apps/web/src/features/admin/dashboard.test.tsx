import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADD_PRODUCT_SUCCESS_MS } from '@pixel-vault/shared';
import userEvent from '@testing-library/user-event';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { makeProduct, makeProductList } from '../../test/factories';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { AddProductSection } from './AddProductSection';
import AdminDashboardPage from './AdminDashboardPage';
import { adminState, imageFile, makeStats, stubObjectUrls } from './test-helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function serveEmpty() {
  return stubFetch((_req, url) => {
    if (url.pathname === '/api/orders/admin/vieworders')
      return jsonResponse({ orders: [], page: 1, totalPage: 1, total: 0 });
    if (url.pathname === '/api/giftcards/admin/getall') return jsonResponse([]);
    if (url.pathname === '/api/users/admin/users')
      return jsonResponse({ users: [], page: 1, totalPage: 1, total: 0 });
    if (url.pathname === '/api/products')
      return jsonResponse({ products: [], page: 1, totalPage: 1, total: 0 });
    if (url.pathname === '/api/reviews/admin/reviews')
      return jsonResponse({ reviews: [], page: 1, totalPage: 1, total: 0 });
    if (url.pathname === '/api/admin/stats') return jsonResponse(makeStats());
    if (url.pathname === '/api/promotions/admin') return jsonResponse([]);
    return jsonResponse({ message: 'Not found' }, 404);
  });
}

describe('AdminDashboardPage', () => {
  it('opens on the Overview and switches sections from the sidebar', async () => {
    serveEmpty();
    const user = userEvent.setup();
    renderWithProviders(<AdminDashboardPage />, { preloadedState: adminState });
    const nav = screen.getByRole('navigation', { name: 'Admin sections' });
    const buttons = within(nav).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual([
      'Overview',
      'Add Product',
      'Remove Product',
      'Update Product',
      'Manage Orders',
      'Manage Gift Cards',
      'Manage Users',
      'Manage Reviews',
      'Promotions',
      'Trade-ins',
      'Webhooks',
      'Import & Export',
    ]);
    expect(within(nav).getByRole('button', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('heading', { level: 2, name: 'Overview' })).toBeInTheDocument();
    expect(await screen.findByText('No sales in this range')).toBeInTheDocument();

    await user.click(within(nav).getByRole('button', { name: 'Manage Orders' }));
    expect(within(nav).getByRole('button', { name: 'Manage Orders' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav).getByRole('button', { name: 'Overview' })).not.toHaveAttribute('aria-current');
    expect(await screen.findByText('No orders found')).toBeInTheDocument();

    await user.click(within(nav).getByRole('button', { name: 'Manage Gift Cards' }));
    expect(await screen.findByText('No gift cards available')).toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: 'Manage Users' }));
    expect(await screen.findByText('No users found')).toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: 'Remove Product' }));
    expect(await screen.findByText('No products found')).toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: 'Manage Reviews' }));
    expect(await screen.findByText('No reviews found')).toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: 'Promotions' }));
    expect(await screen.findByText('No promotions yet')).toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: 'Add Product' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Add Product' })).toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: 'Import & Export' }));
    expect(screen.getByRole('button', { name: 'Export orders' })).toBeInTheDocument();
  });

  it('reads the open section from the URL and writes it there when the sidebar changes it', async () => {
    serveEmpty();
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <AdminDashboardPage />
        <LocationProbe />
      </>,
      { preloadedState: adminState, route: '/admin/dashboard?section=manage-users' },
    );
    const nav = screen.getByRole('navigation', { name: 'Admin sections' });
    expect(within(nav).getByRole('button', { name: 'Manage Users' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByText('No users found')).toBeInTheDocument();

    await user.click(within(nav).getByRole('button', { name: 'Manage Gift Cards' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/dashboard?section=manage-gift-cards');
    expect(screen.getByRole('heading', { level: 2, name: 'Manage Gift Cards' })).toBeInTheDocument();
  });

  it('shows the Overview for an unknown section', () => {
    serveEmpty();
    renderWithProviders(<AdminDashboardPage />, {
      preloadedState: adminState,
      route: '/admin/dashboard?section=no-such-thing',
    });
    expect(screen.getByRole('heading', { level: 2, name: 'Overview' })).toBeInTheDocument();
  });

  it("opens Update Product's edit form on the product a link names, and closing it leaves the list", async () => {
    const zelda = makeProduct({ productName: 'Zelda II', stockQuantity: 1 });
    stubFetch((_req, url) => {
      if (url.pathname === `/api/products/${zelda._id}`) return jsonResponse(zelda);
      if (url.pathname === '/api/products') return jsonResponse(makeProductList([zelda]));
      return jsonResponse({ message: 'Not found' }, 404);
    });
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <AdminDashboardPage />
        <LocationProbe />
      </>,
      {
        preloadedState: adminState,
        route: `/admin/dashboard?section=update-product&product=${zelda._id}`,
      },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Zelda II' });
    expect(within(dialog).getByLabelText('Stock Quantity')).toHaveValue(1);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/dashboard?section=update-product');
    expect(screen.getByTestId('location')).not.toHaveTextContent('product=');
    expect(await screen.findByRole('button', { name: 'Edit Zelda II' })).toBeInTheDocument();
  });

  it('says so when the linked product does not exist', async () => {
    stubFetch((_req, url) =>
      url.pathname === '/api/products'
        ? jsonResponse(makeProductList([]))
        : jsonResponse({ message: 'Product not found' }, 404),
    );
    renderWithProviders(<AdminDashboardPage />, {
      preloadedState: adminState,
      route: '/admin/dashboard?section=update-product&product=00000000-0000-4000-8000-000000000999',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Product not found');
  });

  it('opens and closes the small-screen menu with a toggle that reports aria-expanded', async () => {
    serveEmpty();
    const user = userEvent.setup();
    renderWithProviders(<AdminDashboardPage />, { preloadedState: adminState });
    const toggle = screen.getByRole('button', { name: 'Open Menu' });
    const nav = screen.getByRole('navigation', { name: 'Admin sections' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', nav.id);
    expect(nav).toHaveClass('hidden');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(nav).not.toHaveClass('hidden');

    // Picking a section closes the menu again.
    await user.click(within(nav).getByRole('button', { name: 'Update Product' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(nav).toHaveClass('hidden');
  });
});

async function fillProduct(user: ReturnType<typeof userEvent.setup>, { price = '19.99' } = {}) {
  await user.type(screen.getByLabelText('Name'), 'Pac-Man Cabinet');
  // Issue 30: people read the header's labels; the slug is what is sent.
  expect(screen.getByRole('option', { name: 'Retro Games' })).toHaveValue('retro-games');
  await user.selectOptions(screen.getByLabelText('Category'), 'Consoles');
  await user.type(screen.getByLabelText('Description'), 'A full-size arcade cabinet.');
  if (price) await user.type(screen.getByLabelText('Price'), price);
  await user.type(screen.getByLabelText('Stock Quantity'), '3');
}

describe('Add Product', () => {
  it('refuses to send a product with an empty price', async () => {
    stubObjectUrls();
    const fetchMock = serveEmpty();
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await fillProduct(user, { price: '' });
    await user.upload(screen.getByLabelText('Images'), imageFile('cab.png'));
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    expect(await screen.findByText('Price is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a text file with the exact drop-zone message', () => {
    const { create } = stubObjectUrls();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: [text] } });
    expect(
      screen.getByText('File type must be image/jpeg, image/png, image/webp, image/gif'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Selected images' })).not.toBeInTheDocument();
    expect(create).not.toHaveBeenCalled();
  });

  it("keeps the first 4 of 5 images, says 'Too many files', and revokes a removed preview", async () => {
    const { revoke } = stubObjectUrls();
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await user.upload(screen.getByLabelText('Images'), imageFile('a.png'));
    const more = ['b.png', 'c.jpg', 'd.webp', 'e.gif'].map((n) =>
      imageFile(n, n.endsWith('.jpg') ? 'image/jpeg' : 'image/png'),
    );
    fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: more } });
    expect(screen.getByText('Too many files')).toBeInTheDocument();
    const previews = within(screen.getByRole('list', { name: 'Selected images' })).getAllByRole('img');
    expect(previews.map((img) => img.getAttribute('alt'))).toEqual([
      'Preview of a.png',
      'Preview of b.png',
      'Preview of c.jpg',
      'Preview of d.webp',
    ]);
    await user.click(screen.getByRole('button', { name: 'Remove b.png' }));
    expect(revoke).toHaveBeenCalledWith('blob:preview-2');
    expect(within(screen.getByRole('list', { name: 'Selected images' })).getAllByRole('img')).toHaveLength(3);
  });

  it("sends multipart with repeated images, shows 'Adding...', then the success line and a cleared form", async () => {
    stubObjectUrls();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let sent: FormData | undefined;
    stubFetch(async (request, url) => {
      if (url.pathname === '/api/products/add-new' && request.method === 'POST') {
        sent = await request.formData();
        await gate;
        return jsonResponse({ _id: 'new' }, 201);
      }
      return jsonResponse({ message: 'Not found' }, 404);
    });
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await fillProduct(user);
    await user.upload(screen.getByLabelText('Images'), [imageFile('front.png'), imageFile('back.png')]);
    await user.click(screen.getByRole('button', { name: 'Add Product' }));

    expect(await screen.findByRole('button', { name: 'Adding...' })).toBeDisabled();
    await waitFor(() => expect(sent).toBeDefined());
    // jsdom's File loses its name and bytes on the way through Node's Request; the parts survive.
    expect(sent!.getAll('images')).toHaveLength(2);
    expect(sent!.get('productName')).toBe('Pac-Man Cabinet');
    expect(sent!.get('productCategory')).toBe('consoles');
    expect(sent!.get('productDescription')).toBe('A full-size arcade cabinet.');
    expect(sent!.get('productPrice')).toBe('19.99');
    expect(sent!.get('stockQuantity')).toBe('3');
    // Issue 14: the rating and the count come from reviews; the form neither asks for nor sends them.
    expect(sent!.has('productRating')).toBe(false);
    expect(sent!.has('reviewCount')).toBe(false);
    expect(screen.queryByLabelText('Rating')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Review Count')).not.toBeInTheDocument();

    release();
    expect(await screen.findByText('Product added successfully!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Product' })).toBeEnabled();
    expect(screen.getByLabelText('Name')).toHaveValue('');
    expect(screen.getByLabelText('Price')).toHaveValue(null);
    expect(screen.queryByRole('list', { name: 'Selected images' })).not.toBeInTheDocument();
  });

  it('hides the success line after ADD_PRODUCT_SUCCESS_MS (3 seconds)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      stubObjectUrls();
      stubFetch(() => jsonResponse({ _id: 'new' }, 201));
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderWithProviders(<AddProductSection />, { preloadedState: adminState });
      await fillProduct(user);
      await user.upload(screen.getByLabelText('Images'), imageFile('cab.png'));
      await user.click(screen.getByRole('button', { name: 'Add Product' }));
      expect(await screen.findByText('Product added successfully!')).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(ADD_PRODUCT_SUCCESS_MS - 100));
      expect(screen.getByText('Product added successfully!')).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(200));
      expect(screen.queryByText('Product added successfully!')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the server's message in red when the product is refused", async () => {
    stubObjectUrls();
    stubFetch(() => jsonResponse({ message: 'Image must be a JPEG, PNG, WebP or GIF' }, 400));
    const user = userEvent.setup();
    renderWithProviders(<AddProductSection />, { preloadedState: adminState });
    await fillProduct(user);
    await user.upload(screen.getByLabelText('Images'), imageFile('cab.png'));
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    expect(await screen.findByText('Image must be a JPEG, PNG, WebP or GIF')).toHaveClass('text-red-500');
    expect(screen.queryByText('Product added successfully!')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Pac-Man Cabinet');
  });
});
