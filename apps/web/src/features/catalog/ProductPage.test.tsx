import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import type { Product } from '@pixel-vault/shared';
import { makeProduct } from '../../test/factories';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { ProductPage } from './ProductPage';

function HashProbe() {
  const { pathname, hash } = useLocation();
  return <output data-testid="where">{pathname + hash}</output>;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Serves GET /api/products/:id; `next` (if any) replaces the product for later calls. */
function serveProduct(product: Product) {
  let current = product;
  const mock = stubFetch((_req, url) =>
    url.pathname === `/api/products/${product._id}`
      ? jsonResponse(current)
      : jsonResponse({ message: 'Product not found' }, 404),
  );
  return { mock, change: (p: Product) => (current = p) };
}

function renderProduct(product: Pick<Product, '_id' | 'productCategory'>) {
  return renderWithProviders(
    <Routes>
      <Route path="/shop/:category/product/:id" element={<ProductPage />} />
    </Routes>,
    { route: `/shop/${product.productCategory}/product/${product._id}` },
  );
}

describe('ProductPage', () => {
  it("shows 'Loading product...' until the product arrives, then its details", async () => {
    const product = makeProduct({
      productName: 'Super Mario Bros. 3',
      productCategory: 'retro-games',
      productPrice: 34.5,
      stockQuantity: 7,
      productRating: 4.3,
      reviewCount: 123,
      productDescription: 'NES classic.',
    });
    serveProduct(product);
    renderProduct(product);
    expect(screen.getByText('Loading product...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Super Mario Bros. 3' })).toBeInTheDocument();
    expect(screen.queryByText('Loading product...')).not.toBeInTheDocument();
    expect(screen.getByText('retro games')).toBeInTheDocument();
    expect(screen.getByText('$34.50')).toBeInTheDocument();
    expect(screen.getByText('In stock: 7')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Rated 4.5 out of 5' })).toBeInTheDocument();
    expect(screen.getByText('(123 reviews)')).toBeInTheDocument();
    expect(screen.getByText('NES classic.')).toBeInTheDocument();
    expect(document.title).toBe('Super Mario Bros. 3 — Pixel Vault');
  });

  it("shows a not-found page with 'Error: {message}' for a product that does not exist", async () => {
    stubFetch(() => jsonResponse({ message: 'Product not found' }, 404));
    renderProduct({ _id: '00000000-0000-4000-8000-00000000dead', productCategory: 'puzzles' });
    expect(await screen.findByText('Error: Product not found')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Product not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', '/');
    await waitFor(() => expect(document.title).toBe('Product not found — Pixel Vault'));
  });

  it("shows 'Error: {message}' without the not-found page when loading fails otherwise", async () => {
    stubFetch(() => jsonResponse({ message: 'Database unavailable' }, 503));
    renderProduct({ _id: '00000000-0000-4000-8000-00000000beef', productCategory: 'puzzles' });
    expect(await screen.findByText('Error: Database unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Product not found' })).not.toBeInTheDocument();
  });

  it("shows a disabled 'Unavailable' button and no Add to Cart when the stock is 0", async () => {
    const product = makeProduct({ stockQuantity: 0 });
    serveProduct(product);
    renderProduct(product);
    expect(await screen.findByRole('button', { name: 'Unavailable' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Add to Cart' })).not.toBeInTheDocument();
  });

  it('keeps the quantity stepper between 1 and the stock', async () => {
    const user = userEvent.setup();
    const product = makeProduct({ stockQuantity: 3 });
    serveProduct(product);
    renderProduct(product);
    const input = await screen.findByLabelText('Quantity');
    const minus = screen.getByRole('button', { name: 'Decrease quantity' });
    const plus = screen.getByRole('button', { name: 'Increase quantity' });
    expect(input).toHaveValue(1);
    expect(input).toHaveAttribute('min', '1');
    expect(input).toHaveAttribute('max', '3');
    expect(minus).toBeDisabled();
    await user.click(plus);
    await user.click(plus);
    expect(input).toHaveValue(3);
    expect(plus).toBeDisabled();
    await user.click(minus);
    expect(input).toHaveValue(2);
  });

  it('disables Add to Cart when the typed quantity is above the stock', async () => {
    const user = userEvent.setup();
    const product = makeProduct({ stockQuantity: 3 });
    serveProduct(product);
    renderProduct(product);
    const input = await screen.findByLabelText('Quantity');
    const add = screen.getByRole('button', { name: 'Add to Cart' });
    expect(add).toBeEnabled();
    await user.clear(input);
    await user.type(input, '4');
    expect(add).toBeDisabled();
    expect(screen.getByText('Only 3 in stock.')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '3');
    expect(add).toBeEnabled();
  });

  it('refetches the product before adding, so the cart gets the current price and stock, then opens the cart', async () => {
    const user = userEvent.setup();
    const product = makeProduct({ productPrice: 20, stockQuantity: 5 });
    const { mock, change } = serveProduct(product);
    const { store } = renderProduct(product);
    await user.click(await screen.findByRole('button', { name: 'Increase quantity' }));
    change({ ...product, productPrice: 18.5, stockQuantity: 4 });
    await user.click(screen.getByRole('button', { name: 'Add to Cart' }));
    await waitFor(() => expect(store.getState().cartPanel.isOpen).toBe(true));
    expect(calledUrls(mock)).toEqual([`/api/products/${product._id}`, `/api/products/${product._id}`]);
    expect(store.getState().cart.cartItems).toEqual([
      {
        product: product._id,
        name: product.productName,
        image: product.productImage[0],
        price: 18.5,
        countInStock: 4,
        qty: 2,
      },
    ]);
  });

  it('only logs a failed add to the console and gives the button back', async () => {
    const user = userEvent.setup();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const product = makeProduct();
    let calls = 0;
    stubFetch(() => (++calls === 1 ? jsonResponse(product) : jsonResponse({ message: 'Server busy' }, 503)));
    const { store } = renderProduct(product);
    await user.click(await screen.findByRole('button', { name: 'Add to Cart' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add to Cart' })).toBeEnabled());
    expect(store.getState().cart.cartItems).toEqual([]);
    expect(store.getState().cartPanel.isOpen).toBe(false);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('Server busy'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('switches the main image with the thumbnails', async () => {
    const user = userEvent.setup();
    const product = makeProduct({
      productName: 'Catan',
      productImage: ['/uploads/a.webp', '/uploads/b.webp'],
    });
    serveProduct(product);
    renderProduct(product);
    const main = await screen.findByRole('img', { name: 'Catan' });
    expect(main).toHaveAttribute('src', '/uploads/a.webp');
    const second = screen.getByRole('button', { name: 'Show image 2' });
    expect(second).toHaveAttribute('aria-pressed', 'false');
    await user.click(second);
    expect(second).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('img', { name: 'Catan' })).toHaveAttribute('src', '/uploads/b.webp');
  });

  it('shows the average and the review count linking to the reviews, and hands the product to the reviews slot', async () => {
    const product = makeProduct({ productRating: 4.3, reviewCount: 1 });
    serveProduct(product);
    renderWithProviders(
      <Routes>
        <Route
          path="/shop/:category/product/:id"
          element={<ProductPage reviews={(p) => <p>Reviews of {p.productName}</p>} />}
        />
      </Routes>,
      { route: `/shop/${product.productCategory}/product/${product._id}` },
    );
    expect(await screen.findByText(`Reviews of ${product.productName}`)).toBeInTheDocument();
    expect(screen.getByText('4.3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '(1 review)' })).toHaveAttribute('href', '#reviews');
  });

  it("moves /product/:id to the product's own address, keeping the fragment (issue 14)", async () => {
    const product = makeProduct({ productCategory: 'board-games' });
    serveProduct(product);
    renderWithProviders(
      <>
        <Routes>
          <Route path="/shop/:category/product/:id" element={<ProductPage />} />
          <Route path="/product/:id" element={<ProductPage />} />
        </Routes>
        <HashProbe />
      </>,
      { route: `/product/${product._id}#write-review` },
    );
    expect(await screen.findByRole('heading', { level: 1, name: product.productName })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(
      `/shop/board-games/product/${product._id}#write-review`,
    );
  });
});
