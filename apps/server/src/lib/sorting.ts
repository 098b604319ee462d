/**
 * Strings in the order JavaScript's `<` gives (UTF-16 code units; the same as code points, and as
 * `collate "C"`, outside the rare characters beyond U+FFFF): a fixed order for ids and keys, so rows
 * locked in it cannot deadlock, and for lines sorted as `itemsFor` reads them.
 */
export const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
