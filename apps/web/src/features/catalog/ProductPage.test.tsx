import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation, useNavigationType } from 'react-router';
import type { Product } from '@pixel-vault/shared';
import { makeProduct, makeTieredProduct, type VariantSpec } from '../../test/factories';
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

  it('shows the platform beside the category (issue 33), and no platform line for a product without one', async () => {
    const racer = makeProduct({ productName: 'Neon Drift 64', platform: 'Nintendo 64' });
    serveProduct(racer);
    const { unmount } = renderProduct(racer);
    expect(await screen.findByRole('heading', { level: 1, name: 'Neon Drift 64' })).toBeInTheDocument();
    expect(screen.getByText('Platform: Nintendo 64')).toBeVisible();
    unmount();

    const board = makeProduct({
      productName: 'Harbor Lanterns',
      productCategory: 'board-games',
      platform: null,
    });
    serveProduct(board);
    renderProduct(board);
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbor Lanterns' })).toBeInTheDocument();
    expect(screen.getByText('board games')).toBeInTheDocument();
    expect(screen.queryByText(/Platform/)).not.toBeInTheDocument();
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

/** Where the memory router is, and whether it got there by replacing the entry. */
function AddressProbe() {
  const { search, hash } = useLocation();
  return <p data-testid="address">{`${useNavigationType()} ${search}${hash}`}</p>;
}

/**
 * Zelda II in tiers (issue 31): Loose and Complete in box, NTSC-U and PAL; the boxed PAL copy is sold
 * out. `extra` adds variants after these four.
 */
function zelda(extra: VariantSpec[] = [], overrides: Partial<Product> = {}) {
  const product = makeTieredProduct(
    [
      { options: { Condition: 'Loose', Region: 'NTSC-U' }, price: 34.5, stockQuantity: 3 },
      { options: { Condition: 'Loose', Region: 'PAL' }, price: 30, stockQuantity: 1 },
      { options: { Condition: 'Complete in box', Region: 'NTSC-U' }, price: 134.5, stockQuantity: 2 },
      { options: { Condition: 'Complete in box', Region: 'PAL' }, price: 150, stockQuantity: 0 },
      ...extra,
    ],
    { productName: 'Zelda II', ...overrides },
  );
  const at = (index: number) => product.variants[index]!;
  return { product, looseUs: at(0), loosePal: at(1), boxedUs: at(2), boxedPal: at(3), at };
}

function renderTiers(product: Product, { search = '', addToCart = added } = {}) {
  return renderWithProviders(
    <Routes>
      <Route
        path="/shop/:category/product/:id"
        element={
          <>
            <ProductPage addToCart={addToCart} />
            <AddressProbe />
          </>
        }
      />
    </Routes>,
    { route: `/shop/${product.productCategory}/product/${product._id}${search}` },
  );
}

const group = (name: string) => within(screen.getByRole('group', { name }));

describe('ProductPage: a product sold in tiers (issue 31)', () => {
  it("offers each option as a radio group, each value with its price against the chosen tier's", async () => {
    const { product } = zelda();
    serveProduct(product);
    renderTiers(product);
    await screen.findByRole('heading', { level: 1, name: 'Zelda II' });
    const condition = group('Condition');
    expect(condition.getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual([
      'Loose',
      'Complete in box',
    ]);
    expect(condition.getByRole('radio', { name: 'Loose' })).toBeChecked();
    expect(condition.getByRole('radio', { name: 'Complete in box +$100.00' })).not.toBeChecked();
    expect(group('Region').getByRole('radio', { name: 'NTSC-U' })).toBeChecked();
    expect(group('Region').getByRole('radio', { name: 'PAL −$4.50' })).not.toBeChecked();
    expect(screen.getByText('$34.50')).toBeInTheDocument();
    expect(screen.getByText('In stock: 3')).toBeInTheDocument();
    expect(screen.getByLabelText('Quantity')).toHaveAttribute('max', '3');
  });

  it('follows a chosen tier with the price, the stock, the quantity limit and the address, replaced in place', async () => {
    const user = userEvent.setup();
    const { product, boxedUs } = zelda();
    serveProduct(product);
    renderTiers(product, { search: '?ref=mail#reviews' });
    await user.click(await screen.findByRole('radio', { name: 'Complete in box +$100.00' }));
    expect(screen.getByRole('radio', { name: 'Complete in box' })).toBeChecked();
    expect(screen.getByText('$134.50')).toBeInTheDocument();
    expect(screen.getByText('In stock: 2')).toBeInTheDocument();
    expect(screen.getByLabelText('Quantity')).toHaveAttribute('max', '2');
    // Now priced against the boxed copy: loose is $100 less; its PAL copy is sold out.
    expect(screen.getByRole('radio', { name: 'Loose −$100.00' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'PAL +$15.50 Sold out' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Complete in box / NTSC-U: $134.50, in stock: 2');
    await waitFor(() =>
      expect(screen.getByTestId('address')).toHaveTextContent(
        `REPLACE ?ref=mail&variant=${boxedUs._id}#reviews`,
      ),
    );
  });

  it('opens the tier the address names, and the default one for an id it does not have', async () => {
    const { product, loosePal } = zelda();
    serveProduct(product);
    const { unmount } = renderTiers(product, { search: `?variant=${loosePal._id}` });
    expect(await screen.findByRole('radio', { name: 'PAL' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Loose' })).toBeChecked();
    expect(screen.getByText('$30.00')).toBeInTheDocument();
    expect(screen.getByText('In stock: 1')).toBeInTheDocument();
    unmount();

    renderTiers(product, { search: '?variant=00000000-0000-4000-8000-00000000dead' });
    expect(await screen.findByRole('radio', { name: 'NTSC-U' })).toBeChecked();
    expect(screen.getByText('$34.50')).toBeInTheDocument();
  });

  it('says a sold-out tier is sold out, shows it when chosen, and never hands it to the cart', async () => {
    const user = userEvent.setup();
    const { product, boxedUs } = zelda();
    serveProduct(product);
    const addToCart = vi.fn<AddToCart>(async () => {});
    renderTiers(product, { search: `?variant=${boxedUs._id}`, addToCart });
    const pal = await screen.findByRole('radio', { name: 'PAL +$15.50 Sold out' });
    // Still reachable and choosable: its reason is part of what a screen reader hears.
    expect(pal).not.toBeDisabled();
    expect(pal.closest('label')).toHaveClass('border-dashed');
    await user.click(pal);
    expect(screen.getByRole('radio', { name: 'PAL Sold out' })).toBeChecked();
    expect(screen.getByText('$150.00')).toBeInTheDocument();
    expect(screen.getByText('In stock: 0')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unavailable' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Add to Cart' })).not.toBeInTheDocument();
    expect(addToCart).not.toHaveBeenCalled();
    // Back to a tier in stock, Add to Cart is back.
    await user.click(screen.getByRole('radio', { name: 'NTSC-U −$15.50' }));
    expect(screen.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();
  });

  it('says a combination that does not exist is not available; choosing it picks the nearest tier having it', async () => {
    const user = userEvent.setup();
    const { product, at } = zelda(
      [{ options: { Condition: 'New', Region: 'PAL' }, price: 250, stockQuantity: 1 }],
      {
        options: [
          { name: 'Condition', values: ['Loose', 'Complete in box', 'New', 'Graded'] },
          { name: 'Region', values: ['NTSC-U', 'PAL'] },
        ],
      },
    );
    serveProduct(product);
    renderTiers(product);
    const fresh = await screen.findByRole('radio', { name: 'New +$215.50 Not available' });
    expect(fresh.closest('label')).toHaveClass('border-dashed');
    await user.click(fresh);
    // New exists only in PAL: the region follows.
    expect(screen.getByRole('radio', { name: 'New' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'PAL' })).toBeChecked();
    expect(screen.getByText('$250.00')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(`?variant=${at(4)._id}`));
    // A value no tier has: disabled for a screen reader too, and choosing it changes nothing.
    const graded = screen.getByRole('radio', { name: 'Graded Not available' });
    expect(graded).toHaveAttribute('aria-disabled', 'true');
    await user.click(graded);
    expect(graded).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'New' })).toBeChecked();
  });

  it('hands the chosen tier to the cart, with the quantity brought down to its stock', async () => {
    const user = userEvent.setup();
    const { product, boxedUs, loosePal } = zelda();
    serveProduct(product);
    const addToCart = vi.fn<AddToCart>(async () => {});
    renderTiers(product, { addToCart });
    await user.click(await screen.findByRole('button', { name: 'Increase quantity' }));
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
    expect(screen.getByLabelText('Quantity')).toHaveValue(3);
    await user.click(screen.getByRole('radio', { name: 'Complete in box +$100.00' }));
    expect(screen.getByLabelText('Quantity')).toHaveValue(2);
    await user.click(screen.getByRole('button', { name: 'Add to Cart' }));
    expect(addToCart).toHaveBeenLastCalledWith(product._id, 2, boxedUs._id);
    await user.click(screen.getByRole('radio', { name: 'Loose −$100.00' }));
    await user.click(screen.getByRole('radio', { name: 'PAL −$4.50' }));
    expect(screen.getByLabelText('Quantity')).toHaveValue(1);
    await user.click(screen.getByRole('button', { name: 'Add to Cart' }));
    expect(addToCart).toHaveBeenLastCalledWith(product._id, 1, loosePal._id);
  });

  it('chooses by keyboard: Tab reaches the group, the arrow keys move the choice', async () => {
    const user = userEvent.setup();
    const { product } = zelda();
    serveProduct(product);
    renderTiers(product);
    const loose = await screen.findByRole('radio', { name: 'Loose' });
    for (let i = 0; i < 20 && document.activeElement !== loose; i += 1) await user.tab();
    expect(loose).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Complete in box' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Complete in box' })).toHaveFocus();
    expect(screen.getByText('$134.50')).toBeInTheDocument();
  });

  it('shows no option controls for a product sold in one form, and names no variant to the cart', async () => {
    const user = userEvent.setup();
    const product = makeProduct({ stockQuantity: 2 });
    serveProduct(product);
    const addToCart = vi.fn<AddToCart>(async () => {});
    renderTiers(product, { addToCart, search: `?variant=${product.variants[0]!._id}` });
    await user.click(await screen.findByRole('button', { name: 'Add to Cart' }));
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(addToCart.mock.calls).toEqual([[product._id, 1]]);
  });
});

describe('ProductPage during a sale (issue 32)', () => {
  // Noon UTC: Monday, Nov 30 in any time zone the tests may run in.
  const ENDS = '2026-11-30T12:00:00.000Z';

  it('shows the sale price, the regular one struck through, a Sale badge and when the sale ends', async () => {
    const product = makeTieredProduct([{ options: {}, price: 30, compareAtPrice: 40, stockQuantity: 4 }], {
      productName: 'Catan',
      compareAtPrice: 40,
      saleEndsAt: ENDS,
    });
    serveProduct(product);
    renderProduct(product);
    await screen.findByRole('heading', { level: 1, name: 'Catan' });
    const salePrice = screen.getByText('$30.00');
    expect(salePrice).toHaveTextContent('Sale price $30.00');
    const regular = screen.getByText('$40.00');
    expect(regular.tagName).toBe('S');
    expect(regular).toHaveTextContent('Regular price $40.00');
    expect(screen.getByText('Sale')).toBeVisible();
    const ends = screen.getByText(/^Sale ends/);
    expect(ends).toHaveTextContent(/^Sale ends Mon, Nov 30, \d{1,2}:00 [AP]M$/);
    expect(ends.querySelector('time')).toHaveAttribute('datetime', ENDS);
  });

  it('follows a chosen tier with its sale price and its own regular price, and says both', async () => {
    const user = userEvent.setup();
    const { product } = zelda([], { compareAtPrice: 46, saleEndsAt: ENDS });
    // 25% off every tier: the prices are the sale's, each tier keeps its regular price beside.
    const sale = {
      ...product,
      productPrice: 25.88,
      variants: product.variants.map((v) => ({
        ...v,
        compareAtPrice: v.price,
        price: +(v.price * 0.75).toFixed(2),
      })),
    };
    serveProduct(sale);
    renderTiers(sale);
    await user.click(await screen.findByRole('radio', { name: /^Complete in box/ }));
    expect(screen.getByText('$100.88')).toHaveTextContent('Sale price $100.88');
    expect(screen.getByText('$134.50').tagName).toBe('S');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Complete in box / NTSC-U: sale price $100.88, regular price $134.50, in stock: 2',
    );
    expect(screen.getByText(/^Sale ends/)).toBeInTheDocument();
  });

  it('shows the one price, with no badge, nothing struck through and no end, outside a sale', async () => {
    const product = makeProduct({ productName: 'Tetris', productPrice: 20 });
    serveProduct(product);
    renderProduct(product);
    await screen.findByRole('heading', { level: 1, name: 'Tetris' });
    expect(screen.getByText('$20.00')).not.toHaveTextContent(/Sale price/);
    expect(document.querySelector('s')).toBeNull();
    expect(screen.queryByText('Sale')).not.toBeInTheDocument();
    expect(screen.queryByText(/Sale ends/)).not.toBeInTheDocument();
  });
});
