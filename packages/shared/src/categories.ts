/** Product categories (spec section 3 and 9), as slugs. */
export const CATEGORIES = ['retro-games', 'board-games', 'puzzles', 'consoles'] as const;
export type CategorySlug = (typeof CATEGORIES)[number];

/** Header navigation (spec section 2): label -> path is the label lowercased, spaces to hyphens. */
export const NAV_CATEGORIES = ['Home', 'Board Games', 'Retro Games', 'Puzzles', 'Consoles'] as const;

export function navSlug(label: string): string {
  return label.toLowerCase().replace(/\s+/g, '-');
}

/** A category as people read it: "Retro Games" for `retro-games` (the header's label; issue 30). */
export function categoryTitle(slug: string): string {
  return NAV_CATEGORIES.find((label) => navSlug(label) === slug) ?? slug.replace(/-/g, ' ');
}

export function isCategory(value: string): value is CategorySlug {
  return (CATEGORIES as readonly string[]).includes(value);
}

/** Spec section 9 business constants used by the web app. */
export const MAX_PRODUCT_IMAGES = 4;
export const HOME_FAVOURITES = 6;
export const USER_SEARCH_MAX = 9;
export const HEADER_HIDE_SCROLL_PX = 100;
export const CARD_TILT_MAX_DEG = 16.25;
export const ADD_PRODUCT_SUCCESS_MS = 3000;
/** redux-persist configuration (spec section 4). */
export const PERSIST_KEY = 'root';
export const PERSIST_VERSION = 1;
export const PERSIST_TIMEOUT_MS = 5000;
