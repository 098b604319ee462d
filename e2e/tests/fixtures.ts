import { test as base, expect, type Page } from '@playwright/test';

/** The app marks the document once React has drawn or hydrated it (apps/web/src/main.tsx). */
export const READY = 'html[data-ready]';

async function waitUntilReady(page: Page) {
  await page.waitForSelector(READY, { state: 'attached' });
}

/**
 * `page` as a shopper meets it: a page that arrived rendered by the server (the catalogue) is readable
 * at once but only reacts once hydrated, a moment later; a shopper's click comes after that moment,
 * a test's would come before it. So every `goto` and `reload` also waits for the app to be ready.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (...args: Parameters<Page['goto']>) => {
      const response = await goto(...args);
      await waitUntilReady(page);
      return response;
    };
    page.reload = async (...args: Parameters<Page['reload']>) => {
      const response = await reload(...args);
      await waitUntilReady(page);
      return response;
    };
    await use(page);
  },
});

export { expect };
