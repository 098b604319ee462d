import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, StaticRouter } from 'react-router';
import { catalogApi } from '../../features/catalog/api';
import { makeReview, makeReviewPage } from '../../features/reviews/test-helpers';
import { EARLY_EVENTS_KEY, ENTRY_LOADER, type Product } from '@pixel-vault/shared';
import { makeProduct, makeTieredProduct } from '../../test/factories';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { pickUpEarlyEdits, replayEarlyActions, takeEarlyEvents } from '../earlyEvents';
import { PageReady, PageReadyContext } from '../ready';
import { serverAnswers } from '../ssrState';
import { restored, restoring } from '../sessionSlice';
import { makeStore, type AppStore } from '../store';
import { ProductPage } from './ProductPage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

const routes = (
  <Routes>
    <Route path="/shop/:category/product/:id" element={<ProductPage />} />
  </Routes>
);

function app(store: AppStore, router: 'server' | 'browser', url: string) {
  return (
    <StrictMode>
      <Provider store={store} serverState={router === 'browser' ? store.getState() : undefined}>
        {router === 'server' ? (
          <StaticRouter location={url}>{routes}</StaticRouter>
        ) : (
          <MemoryRouter initialEntries={[url]}>{routes}</MemoryRouter>
        )}
      </Provider>
    </StrictMode>
  );
}

describe('the product page rendered on the server (issue 14)', () => {
  it('has the rating and count in its HTML, hydrates without a mismatch, then draws the reviews in the reserved block', async () => {
    const product = makeProduct({ productName: 'Zelda II', productRating: 4.3, reviewCount: 7 });
    const url = `/shop/${product.productCategory}/product/${product._id}`;
    stubFetch((_req, u) =>
      u.pathname === `/api/products/${product._id}`
        ? jsonResponse(product)
        : u.pathname === `/api/products/${product._id}/reviews`
          ? jsonResponse(makeReviewPage([makeReview({ title: 'Worth it' })]))
          : jsonResponse({ message: 'Not found' }, 404),
    );

    // The server: the product's answer in its store, the page as HTML.
    const serverStore = makeStore();
    await serverStore.dispatch(catalogApi.endpoints.getProduct.initiate(product._id));
    const html = renderToString(app(serverStore, 'server', url));
    // React separates text parts with empty comments.
    const text = html.replace(/<!-- -->/g, '');
    expect(text).toContain('Zelda II');
    expect(text).toContain('(7 reviews)');
    expect(text).toContain('>4.3<');
    expect(html).toContain('aria-label="Loading reviews"');
    expect(html).toContain('min-h-[30rem]');
    expect(html).not.toContain('Worth it');

    // The browser, as main.tsx does it: the server's answers, the session still being restored.
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const errors = vi.spyOn(console, 'error');
    const recoverable = vi.fn();
    const store = makeStore();
    store.dispatch(restoring());
    const { api } = serverStore.getState();
    store.dispatch(serverAnswers({ queries: api.queries, mutations: api.mutations, provided: api.provided }));
    await act(async () => {
      hydrateRoot(container, app(store, 'browser', url), { onRecoverableError: recoverable });
    });
    act(() => {
      store.dispatch(restored());
    });

    expect(await screen.findByRole('heading', { name: 'Worth it' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in to write a review' })).toBeInTheDocument();
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    // The reviews replaced the skeleton inside the same block.
    expect(screen.getByRole('region', { name: 'Reviews' })).toHaveClass('min-h-[30rem]');
  });
});

describe('the stock on a product page rendered on the server (issue 28)', () => {
  it('hydrates with the figure the page was rendered with, then shows the current one', async () => {
    const product = makeProduct({ productName: 'Kept Page', stockQuantity: 7 });
    const url = `/shop/${product.productCategory}/product/${product._id}`;
    let served = product;
    stubFetch((_req, u) =>
      u.pathname === `/api/products/${product._id}`
        ? jsonResponse(served)
        : u.pathname === `/api/products/${product._id}/reviews`
          ? jsonResponse(makeReviewPage([]))
          : jsonResponse({ message: 'Not found' }, 404),
    );
    const serverStore = makeStore();
    await serverStore.dispatch(catalogApi.endpoints.getProduct.initiate(product._id));
    const html = renderToString(app(serverStore, 'server', url));
    expect(html.replace(/<!-- -->/g, '')).toContain('In stock: 7');

    // The server kept its page while orders took stock: the API now answers 3.
    served = { ...product, stockQuantity: 3 };
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const recoverable = vi.fn();
    const store = makeStore();
    const { api } = serverStore.getState();
    store.dispatch(serverAnswers({ queries: api.queries, mutations: api.mutations, provided: api.provided }));
    await act(async () => {
      hydrateRoot(container, app(store, 'browser', url), { onRecoverableError: recoverable });
    });
    expect(await screen.findByText('In stock: 3')).toBeInTheDocument();
    expect(screen.getByLabelText('Quantity')).toHaveAttribute('max', '3');
    expect(recoverable).not.toHaveBeenCalled();
  });
});

describe("the product page's Add to Cart (the cart feature's, composed here)", () => {
  /** GET /api/products/:id answers `answer(n)` on its n-th call; its reviews are an empty page. */
  function serveProduct(id: string, answer: (call: number) => Response) {
    let calls = 0;
    return stubFetch((_req, url) =>
      url.pathname === `/api/products/${id}`
        ? answer(++calls)
        : url.pathname === `/api/products/${id}/reviews`
          ? jsonResponse(makeReviewPage([]))
          : jsonResponse({ message: 'Not found' }, 404),
    );
  }
  const renderProduct = (product: { _id: string; productCategory: string }) =>
    renderWithProviders(routes, { route: `/shop/${product.productCategory}/product/${product._id}` });

  it('reads the product again before adding, so the cart gets the current price and stock, then opens the cart', async () => {
    const user = userEvent.setup();
    const product = makeProduct({ productPrice: 20, stockQuantity: 5 });
    const now = { ...product, productPrice: 18.5, stockQuantity: 4 };
    const mock = serveProduct(product._id, (call) => jsonResponse(call === 1 ? product : now));
    const { store } = renderProduct(product);
    await user.click(await screen.findByRole('button', { name: 'Increase quantity' }));
    await user.click(screen.getByRole('button', { name: 'Add to Cart' }));
    await waitFor(() => expect(store.getState().cartPanel.isOpen).toBe(true));
    const productUrl = `/api/products/${product._id}`;
    expect(calledUrls(mock).filter((url) => url === productUrl)).toEqual([productUrl, productUrl]);
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
    serveProduct(product._id, (call) =>
      call === 1 ? jsonResponse(product) : jsonResponse({ message: 'Server busy' }, 503),
    );
    const { store } = renderProduct(product);
    await user.click(await screen.findByRole('button', { name: 'Add to Cart' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add to Cart' })).toBeEnabled());
    expect(store.getState().cart.cartItems).toEqual([]);
    expect(store.getState().cartPanel.isOpen).toBe(false);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('Server busy'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

/** Zelda II in tiers (issue 31): Loose and Complete in box, NTSC-U and PAL. */
function zelda() {
  const product = makeTieredProduct(
    [
      { options: { Condition: 'Loose', Region: 'NTSC-U' }, price: 34.5, stockQuantity: 3 },
      { options: { Condition: 'Loose', Region: 'PAL' }, price: 30, stockQuantity: 1 },
      { options: { Condition: 'Complete in box', Region: 'NTSC-U' }, price: 134.5, stockQuantity: 2 },
      { options: { Condition: 'Complete in box', Region: 'PAL' }, price: 150, stockQuantity: 4 },
    ],
    { productName: 'Zelda II' },
  );
  return { product, at: (index: number) => product.variants[index]! };
}

/** Serves the product (and an empty page of its reviews); counts nothing else. */
function serveTiers(product: Product) {
  return stubFetch((_req, u) =>
    u.pathname === `/api/products/${product._id}`
      ? jsonResponse(product)
      : u.pathname === `/api/products/${product._id}/reviews`
        ? jsonResponse(makeReviewPage([]))
        : jsonResponse({ message: 'Not found' }, 404),
  );
}

/** The page as the server renders it for `url`, in the document, and the browser's store with its answers. */
async function serverPage(product: Product, url: string, tree = app) {
  const serverStore = makeStore();
  await serverStore.dispatch(catalogApi.endpoints.getProduct.initiate(product._id));
  const html = renderToString(tree(serverStore, 'server', url));
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const store = makeStore();
  const { api } = serverStore.getState();
  store.dispatch(serverAnswers({ queries: api.queries, mutations: api.mutations, provided: api.provided }));
  return { html, container, store };
}

describe('a product page in tiers rendered on the server (issue 31)', () => {
  it('shows the tier ?variant= names in its HTML and hydrates it without a mismatch', async () => {
    const { product, at } = zelda();
    serveTiers(product);
    const url = `/shop/${product.productCategory}/product/${product._id}?variant=${at(3)._id}`;
    const { html, container, store } = await serverPage(product, url);
    const text = html.replace(/<!-- -->/g, '');
    expect(text).toContain('$150.00');
    expect(text).toContain('In stock: 4');
    const checked = [...container.querySelectorAll<HTMLInputElement>('input[type="radio"]')]
      .filter((radio) => radio.hasAttribute('checked'))
      .map((radio) => radio.value);
    expect(checked).toEqual(['Complete in box', 'PAL']);

    const errors = vi.spyOn(console, 'error');
    const recoverable = vi.fn();
    await act(async () => {
      hydrateRoot(container, app(store, 'browser', url), { onRecoverableError: recoverable });
    });
    expect(screen.getByRole('radio', { name: 'PAL' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Complete in box' })).toBeChecked();
    expect(screen.getByLabelText('Quantity')).toHaveAttribute('max', '4');
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
  });
});

describe('a tier chosen before the app starts (issues 29 and 31)', () => {
  afterEach(() => {
    takeEarlyEvents();
    delete (window as unknown as Record<string, unknown>)[EARLY_EVENTS_KEY];
    document.documentElement.removeAttribute('data-pending');
  });

  /** The page as main.tsx and the layout draw it: told when it has hydrated (<PageReady> beside it). */
  function startingApp(store: AppStore, router: 'server' | 'browser', url: string, onReady = () => {}) {
    const page = (
      <Routes>
        <Route
          path="/shop/:category/product/:id"
          element={
            <>
              <ProductPage />
              <PageReady />
            </>
          }
        />
      </Routes>
    );
    return (
      <StrictMode>
        <Provider store={store} serverState={router === 'browser' ? store.getState() : undefined}>
          <PageReadyContext value={onReady}>
            {router === 'server' ? (
              <StaticRouter location={url}>{page}</StaticRouter>
            ) : (
              <MemoryRouter initialEntries={[url]}>{page}</MemoryRouter>
            )}
          </PageReadyContext>
        </Provider>
      </StrictMode>
    );
  }

  it('is the one Add to Cart, tapped before the app started too, puts in the cart, with every option tapped', async () => {
    const { product, at } = zelda();
    serveTiers(product);
    const url = `/shop/${product.productCategory}/product/${product._id}`;
    const { container, store } = await serverPage(product, url, startingApp);
    // The page's loader, as the server's page runs it (jsdom runs no inline script by itself).
    const script = document.createElement('script');
    script.dataset.entry = '/assets/index-test.js';
    Object.defineProperty(document, 'currentScript', { value: script, configurable: true });
    (0, eval)(ENTRY_LOADER);

    // Taps on the rendered page: the boxed copy, the PAL one (on their labels, where a finger lands), then
    // Add to Cart. Both choices are picked up in one go: the second must build on the first.
    const radio = (value: string) => container.querySelector<HTMLInputElement>(`input[value="${value}"]`)!;
    radio('Complete in box').closest('label')!.click();
    radio('PAL').closest('label')!.click();
    expect(radio('Complete in box').checked).toBe(true);
    expect(radio('PAL').checked).toBe(true);
    [...container.querySelectorAll('button')].find((b) => b.textContent === 'Add to Cart')!.click();
    expect(document.documentElement.hasAttribute('data-pending')).toBe(true);

    // As main.tsx starts the app: the recording taken, the page hydrated and its fields read as soon as
    // it is, then the taps replayed.
    const early = takeEarlyEvents();
    let pickedUp: Promise<void> | undefined;
    await act(async () => {
      hydrateRoot(
        container,
        startingApp(store, 'browser', url, () => void (pickedUp ??= pickUpEarlyEdits(early))),
      );
    });
    await act(() => pickedUp);
    await act(() => replayEarlyActions(early));

    await waitFor(() => expect(store.getState().cart.cartItems).toHaveLength(1));
    expect(store.getState().cart.cartItems[0]).toMatchObject({
      product: product._id,
      variant: at(3)._id,
      variantTitle: 'Complete in box / PAL',
      price: 150,
      countInStock: 4,
      qty: 1,
    });
    expect(screen.getByRole('radio', { name: 'Complete in box' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'PAL' })).toBeChecked();
    expect(screen.getByText('$150.00')).toBeInTheDocument();
    expect(document.documentElement.hasAttribute('data-pending')).toBe(false);
  });
});

describe('two tiers of one game added from its page (issue 31)', () => {
  it('are two lines of the cart, each with its price, stock and title', async () => {
    const user = userEvent.setup();
    const { product, at } = zelda();
    serveTiers(product);
    const { store } = renderWithProviders(routes, {
      route: `/shop/${product.productCategory}/product/${product._id}`,
    });
    await user.click(await screen.findByRole('button', { name: 'Add to Cart' }));
    await waitFor(() => expect(store.getState().cart.cartItems).toHaveLength(1));
    await user.click(screen.getByRole('radio', { name: 'PAL −$4.50' }));
    await user.click(screen.getByRole('button', { name: 'Add to Cart' }));
    await waitFor(() => expect(store.getState().cart.cartItems).toHaveLength(2));
    expect(store.getState().cart.cartItems).toEqual([
      expect.objectContaining({
        variant: at(0)._id,
        variantTitle: 'Loose / NTSC-U',
        price: 34.5,
        countInStock: 3,
      }),
      expect.objectContaining({
        variant: at(1)._id,
        variantTitle: 'Loose / PAL',
        price: 30,
        countInStock: 1,
      }),
    ]);
  });
});
