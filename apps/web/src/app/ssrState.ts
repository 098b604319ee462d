import { createAction } from '@reduxjs/toolkit';

/**
 * What a page rendered on the server hands to the browser, in `<script type="application/json"
 * id="pv-state">`: the data layer's answers (RTK Query's fulfilled and failed queries, with the tags
 * they provide) and the seed of the home page's random draw, so the first render in the browser is the
 * same as the server's and React hydrates it instead of redrawing.
 */
export interface ServerState {
  api: { queries: Record<string, unknown>; mutations: Record<string, unknown>; provided: unknown };
  seed: number;
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

/** The seed the home page draws its favourites with during the first render after a server render. */
let firstRenderSeed: number | undefined;

export function setFirstRenderSeed(seed: number | undefined) {
  firstRenderSeed = seed;
}

/**
 * A random seed, except until the home page has been hydrated after a server render: then the server's
 * (the home page clears it once committed; hydration may be retried until then).
 */
export function drawSeed(): number {
  return firstRenderSeed ?? Math.floor(Math.random() * 2 ** 31);
}
