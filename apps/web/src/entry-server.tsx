import { StrictMode } from 'react';
// The edge build, not the node one: React's node build keeps each render in an AsyncLocalStorage,
// whose first use turns on async hooks for the whole process: every promise and tick of every later
// API call then pays for them. The edge build looks for a global AsyncLocalStorage, which Node has not.
import { prerender } from 'react-dom/static.edge';
import { Provider } from 'react-redux';
import { StaticRouter, matchPath } from 'react-router';
import {
  categoryLabel,
  categoryTitle,
  isCategory,
  type Product,
  type RenderPage,
  type RenderRequest,
  type RenderResult,
} from '@pixel-vault/shared';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { AppRoutes, preloadPage } from './app/router';
import { scriptJson, type ServerState } from './app/ssrState';
import { makeStore, type AppStore } from './app/store';
import { catalogApi } from './features/catalog/api';
import { facetsApi } from './features/catalog/facetsApi';
import {
  filtersOf,
  isRefined,
  listQuery,
  readListing,
  scopeFilters,
  type Listing,
} from './features/catalog/listing';
import { searchTitle } from './features/catalog/SearchPage';
import { ServerFavourites, loadFavourites } from './features/catalog/favourites';
import { SITE_NAME, SITE_TITLE } from './ui/useDocumentTitle';
import { headTags, summary, type PageHead } from './ssr/head';
import { productOffers } from './ssr/productOffers';

/** Shown to search engines and link previews for the home page (and index.html's default). */
export const SHOP_DESCRIPTION =
  'Pixel Vault is an online shop for retro games, board games, puzzles and consoles — hand-picked, tested and shipped across the USA.';

const CATEGORY_DESCRIPTIONS: Record<string, string> = {
  'retro-games': 'Cartridges and discs for the consoles you grew up with',
  'board-games': 'Family classics, strategy games and party games',
  puzzles: 'Jigsaws, brain teasers and puzzle boxes',
  consoles: 'Tested retro consoles, handhelds and controllers',
};

type Route =
  | { page: 'home' }
  | { page: 'category'; category: string }
  | { page: 'search' }
  | { page: 'product'; category: string; id: string };

/** The catalogue routes of router.tsx that are rendered on the server; every other page is not. */
function matchCatalogue(pathname: string): Route | undefined {
  if (pathname === '/' || matchPath('/shop/home', pathname)) return { page: 'home' };
  const product = matchPath('/shop/:category/product/:id', pathname);
  if (product)
    return { page: 'product', category: product.params.category ?? '', id: product.params.id ?? '' };
  const category = matchPath('/shop/:category', pathname);
  if (category) return { page: 'category', category: category.params.category ?? '' };
  if (matchPath('/search', pathname)) return { page: 'search' };
  return undefined;
}

const absolute = (origin: string, path: string) => new URL(path, `${origin}/`).href;

function productHead(product: Product, origin: string): PageHead {
  const url = absolute(origin, `/shop/${product.productCategory}/product/${product._id}`);
  const images = product.productImage.map((src) => absolute(origin, src));
  const price = product.productPrice.toFixed(2);
  const description = summary(product.productDescription) || `${product.productName} at ${SITE_NAME}`;
  return {
    title: `${product.productName} — ${SITE_NAME}`,
    description,
    canonical: url,
    image: images[0],
    type: 'product',
    og: { 'product:price:amount': price, 'product:price:currency': 'USD' },
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.productName,
      description: product.productDescription,
      image: images,
      sku: product._id,
      category: categoryLabel(product.productCategory),
      // Issue 33: schema.org's Product has no property for a platform; a PropertyValue names it.
      ...(product.platform
        ? { additionalProperty: [{ '@type': 'PropertyValue', name: 'Platform', value: product.platform }] }
        : {}),
      // One Offer per variant, with its SKU and condition (issue 31); one object when sold in one form.
      offers: productOffers(product, url),
      // Issue 14: the rating from verified buyers' reviews, and the newest of them (customers' text: the
      // JSON is made safe for the script element by headTags).
      ...(product.reviewCount > 0 && {
        aggregateRating: {
          '@type': 'AggregateRating',
          ratingValue: product.productRating,
          reviewCount: product.reviewCount,
          bestRating: 5,
          worstRating: 1,
        },
      }),
      ...(product.reviews.length > 0 && {
        review: product.reviews.map((review) => ({
          '@type': 'Review',
          name: review.title,
          reviewBody: review.comment,
          datePublished: review.createdAt.slice(0, 10),
          author: { '@type': 'Person', name: review.name },
          reviewRating: { '@type': 'Rating', ratingValue: review.rating, bestRating: 5, worstRating: 1 },
        })),
      }),
    },
  };
}

/**
 * A list page's calls (issue 33), as ProductListing makes them: the list, its facets and its scope's
 * (the same call when nothing is chosen). Answers the list's error, if any.
 */
async function loadListing(store: AppStore, listing: Listing, categoryPage: boolean): Promise<unknown> {
  const [list] = await Promise.all([
    store.dispatch(catalogApi.endpoints.getProducts.initiate(listQuery(listing))),
    store.dispatch(facetsApi.endpoints.getProductFacets.initiate(filtersOf(listing))),
    store.dispatch(facetsApi.endpoints.getProductFacets.initiate(scopeFilters(listing, categoryPage))),
  ]);
  return list.error;
}

/** The API's answer status of a failed call (404 for an unknown product, say). */
function errorStatus(error: unknown): number {
  const status = (error as FetchBaseQueryError | undefined)?.status;
  return typeof status === 'number' ? status : 500;
}

/**
 * Renders a catalogue page (home, a category, a product) with its data, for the first HTML answer;
 * undefined for every other page (the browser draws those). The store is this request's own: its
 * answers go to the browser in the page (app/ssrState.ts) and the browser hydrates the same markup.
 */
export const render: RenderPage = async (request: RenderRequest): Promise<RenderResult | undefined> => {
  const url = new URL(request.url, 'http://pixel-vault.invalid');
  const route = matchCatalogue(url.pathname);
  if (!route) return undefined;
  // Spec section 2: an unknown category goes to the home page.
  if (route.page === 'category' && !isCategory(route.category)) {
    return { kind: 'redirect', status: 302, location: '/' };
  }

  const store = makeStore(undefined, { fetch: request.fetch });
  await preloadPage(url.pathname);
  const { origin } = request;
  let status = 200;
  let head: PageHead;
  let favourites: Product[] | undefined;
  if (route.page === 'home') {
    try {
      favourites = await loadFavourites(request.fetch, 'http://pixel-vault.invalid');
    } catch (error) {
      // The page still renders (the browser tries again); the status says what went wrong.
      status = errorStatus(error);
    }
    head = {
      title: SITE_TITLE,
      description: SHOP_DESCRIPTION,
      canonical: absolute(origin, '/'),
      type: 'website',
    };
  } else if (route.page === 'category' && isCategory(route.category)) {
    const { category } = route;
    const listing = readListing(url.searchParams, category);
    const error = await loadListing(store, listing, true);
    if (error) status = errorStatus(error);
    const heading = categoryTitle(category);
    // Issue 33: a searched, filtered or sorted list is not a page of its own; its page is the category's.
    const refined = isRefined(listing, { categoryPage: true });
    head = {
      title: `${heading} — ${SITE_NAME}`,
      description: `${CATEGORY_DESCRIPTIONS[category] ?? heading}, at ${SITE_NAME}. Hand-picked, tested and shipped across the USA.`,
      canonical: absolute(
        origin,
        `/shop/${category}${!refined && listing.page > 1 ? `?page=${listing.page}` : ''}`,
      ),
      type: 'website',
      noindex: refined,
    };
  } else if (route.page === 'search') {
    // Issue 33: the shop searched; without a search text, the page asks for one (nothing to load).
    const listing = readListing(url.searchParams);
    if (listing.q) {
      const error = await loadListing(store, listing, false);
      if (error) status = errorStatus(error);
    }
    head = {
      title: `${searchTitle(listing.q)} — ${SITE_NAME}`,
      description: `Search ${SITE_NAME} for retro games, board games, puzzles and consoles.`,
      canonical: absolute(origin, '/search'),
      type: 'website',
      noindex: true,
    };
  } else {
    const id = route.page === 'product' ? route.id : '';
    const { data, error } = await store.dispatch(catalogApi.endpoints.getProduct.initiate(id));
    if (data && route.page === 'product' && route.category !== data.productCategory) {
      // Issue 30: a product reached under another category (an old or mistyped link) moves to its own
      // address for good, so that a search engine and the shopper keep one.
      const location = `/shop/${data.productCategory}/product/${data._id}${url.search}`;
      return { kind: 'redirect', status: 301, location };
    }
    if (data) {
      head = productHead(data, origin);
    } else {
      status = errorStatus(error);
      // An id that is not one (400) is as unknown as one that was deleted.
      if (status === 400) status = 404;
      head = {
        title: `Product not found — ${SITE_NAME}`,
        description: SHOP_DESCRIPTION,
        canonical: absolute(origin, url.pathname),
        type: 'website',
        noindex: true,
      };
    }
  }

  const { prelude } = await prerender(
    <StrictMode>
      <Provider store={store}>
        <ServerFavourites value={favourites}>
          <StaticRouter location={request.url}>
            <AppRoutes />
          </StaticRouter>
        </ServerFavourites>
      </Provider>
    </StrictMode>,
    // Every boundary in place in the one HTML answer: no fallback now and content later (that would take
    // inline scripts, which the page's CSP refuses).
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const html = await new Response(prelude).text();
  const api = route.page === 'home' ? undefined : store.getState().api;
  const state: ServerState = {
    ...(api && { api: { queries: api.queries, mutations: api.mutations, provided: api.provided } }),
    ...(favourites && { favourites }),
  };
  return { kind: 'page', status, head: headTags(head), html, state: scriptJson(state) };
};
