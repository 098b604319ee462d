import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import type { Product } from '@pixel-vault/shared';
import { makeProduct } from '../../test/factories';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { type AddToCart, ProductPage } from './ProductPage';

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

/** The cart's side of 'Add to Cart' (app/ gives the real one: app/pages/ProductPage.test.tsx). */
const added: AddToCart = async () => {};

function renderProduct(product: Pick<Product, '_id' | 'productCategory'>, addToCart = added) {
  return renderWithProviders(
    <Routes>
      <Route path="/shop/:category/product/:id" element={<ProductPage addToCart={addToCart} />} />
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

  it('shows a not-found page in words for a shopper, with the ways back, for a product that does not exist', async () => {
    // A mistyped id answers 400 "Invalid id": the shopper reads the same page (issue 30).
    for (const [status, message] of [
      [404, 'Product not found'],
      [400, 'Invalid id'],
    ] as const) {
      stubFetch(() => jsonResponse({ message }, status));
      const { unmount } = renderProduct({ _id: `not-a-product-${status}`, productCategory: 'puzzles' });
      expect(await screen.findByText("We couldn't find that product.")).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1, name: 'Product not found' })).toBeInTheDocument();
      expect(screen.queryByText(`Error: ${message}`)).not.toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', '/');
      expect(screen.getByRole('link', { name: 'Browse Puzzles' })).toHaveAttribute('href', '/shop/puzzles');
      await waitFor(() => expect(document.title).toBe('Product not found — Pixel Vault'));
      unmount();
    }
  });

  it('moves a product reached under another category to its own address', async () => {
    const product = makeProduct({ productCategory: 'consoles' });
    serveProduct(product);
    renderWithProviders(
      <Routes>
        <Route
          path="/shop/:category/product/:id"
          element={
            <>
              <ProductPage addToCart={added} />
              <LocationProbe />
            </>
          }
        />
      </Routes>,
      { route: `/shop/puzzles/product/${product._id}?ref=mail#reviews` },
    );
    expect(await screen.findByRole('heading', { level: 1, name: product.productName })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(
      `/shop/consoles/product/${product._id}?ref=mail`,
    );
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

  it('hands the product and the quantity to the cart, is busy until it answers, and gives the button back when it fails', async () => {
    const user = userEvent.setup();
    const product = makeProduct({ stockQuantity: 5 });
    serveProduct(product);
    let fail!: () => void;
    const addToCart = vi.fn<AddToCart>(
      () => new Promise<void>((_resolve, reject) => (fail = () => reject(new Error('refused')))),
    );
    renderProduct(product, addToCart);
    await user.click(await screen.findByRole('button', { name: 'Increase quantity' }));
    await user.click(screen.getByRole('button', { name: 'Add to Cart' }));
    expect(addToCart).toHaveBeenCalledWith(product._id, 2);
    expect(screen.getByRole('button', { name: 'Adding...' })).toBeDisabled();
    fail();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add to Cart' })).toBeEnabled());
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
          element={<ProductPage addToCart={added} reviews={(p) => <p>Reviews of {p.productName}</p>} />}
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
          <Route path="/shop/:category/product/:id" element={<ProductPage addToCart={added} />} />
          <Route path="/product/:id" element={<ProductPage addToCart={added} />} />
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
