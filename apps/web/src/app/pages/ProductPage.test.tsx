import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, StaticRouter } from 'react-router';
import { catalogApi } from '../../features/catalog/api';
import { makeReview, makeReviewPage } from '../../features/reviews/test-helpers';
import { makeProduct } from '../../test/factories';
import { jsonResponse, stubFetch } from '../../test/fetch';
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
