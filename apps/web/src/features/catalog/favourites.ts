import { createContext, useContext, useEffect, useState } from 'react';
import { HOME_FAVOURITES, type Product, type ProductListResponse } from '@pixel-vault/shared';
import { errorMessage, listParams } from '../../app/apiCommon';
import { pickRandom } from './random';

/** Enough to draw favourites from the whole catalogue (the API's maximum page size). */
const FAVOURITES_POOL = 100;

/**
 * The home page's one call, made without the data layer (RTK Query): the landing page's first
 * download is 17 kB lighter without it (bench/RESULTS.md). `origin` is the server's during its render.
 */
export async function loadFavourites(
  fetchFn: typeof fetch = fetch,
  origin = globalThis.location?.origin ?? '',
  signal?: AbortSignal,
): Promise<Product[]> {
  const query = new URLSearchParams(
    Object.entries(listParams({ limit: FAVOURITES_POOL })).map(([k, v]) => [k, String(v)]),
  );
  const response = await fetchFn(`${origin}/api/products?${query}`, { signal });
  const body = (await response.json().catch(() => undefined)) as unknown;
  // Spec section 8: the server's message if it sent one, else the network's.
  if (!response.ok) throw { data: body, error: `${response.status} ${response.statusText}` };
  const { products } = body as ProductListResponse;
  return pickRandom(products, HOME_FAVOURITES, Math.floor(Math.random() * 2 ** 31));
}

/** The server's draw while it renders the home page (one per request: a context, not a variable). */
export const ServerFavourites = createContext<Product[] | undefined>(undefined);

/** In the browser: the server's draw, for the first render after a server render (hydration). */
let handedOver: Product[] | undefined;

export function handOverFavourites(products: Product[] | undefined) {
  handedOver = products;
}

/** Spec section 2: six random favourites, loaded on entry to the home page (one draw per visit). */
export function useFavourites(): { favourites?: Product[]; error?: string } {
  const fromServer = useContext(ServerFavourites) ?? handedOver;
  const [state, setState] = useState<{ favourites?: Product[]; error?: string }>(() =>
    fromServer ? { favourites: fromServer } : {},
  );
  const loaded = state.favourites !== undefined || state.error !== undefined;
  useEffect(() => {
    // Hydrated: the next visit to the home page draws anew.
    handedOver = undefined;
    if (loaded) return;
    const controller = new AbortController();
    loadFavourites(fetch, undefined, controller.signal).then(
      (favourites) => setState({ favourites }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ error: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [loaded]);
  return state;
}
