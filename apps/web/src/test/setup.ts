import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// jsdom lacks these browser APIs; the app reads them (reduced motion, scroll to top on navigation).
if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
// jsdom's own scrollTo only reports "Not implemented" on the console.
window.scrollTo = (() => {}) as typeof window.scrollTo;
// jsdom has no scrollIntoView at all (the reviews' #write-review brings the form into view).
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

afterEach(() => {
  cleanup();
  localStorage.clear();
});
