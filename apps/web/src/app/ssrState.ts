import { createAction } from './actions';

import type { Product } from '@pixel-vault/shared';

/**
 * What a page rendered on the server hands to the browser, in `<script type="application/json"
 * id="pv-state">`, so that the first render in the browser is the same as the server's and React
 * hydrates it instead of redrawing: the data layer's answers (RTK Query's fulfilled and failed queries,
 * with the tags they provide) on catalogue pages, the home page's draw of favourites on the home page.
 */
export interface ServerState {
  api?: { queries: Record<string, unknown>; mutations: Record<string, unknown>; provided: unknown };
  favourites?: Product[];
}

export const SSR_STATE_ID = 'pv-state';

/** Dispatched once, before hydration: RTK Query takes its queries from it (extractRehydrationInfo). */
export const serverAnswers = createAction<ServerState['api']>('app/serverAnswers');
export const isServerAnswers = serverAnswers.match;

/** JSON safe inside a script element: no `</script>`, no `<!--`, no line separators. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
