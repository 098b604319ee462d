import { type CachedAnswer, cachedAnswer } from '../../lib/cached-answer.js';
import type { App } from '../../lib/http.js';
import { keptValues } from '../../lib/kept.js';
import type { StockedAnswer } from '../products/products.answers.js';
import { type SsrModule, type Template, pageHtml } from './web.ssr.js';

/** What pages need of the catalogue (the products service). */
export interface PageCatalogue {
  /** Moves with every change of what the catalogue shows besides stock: pages are kept under it. */
  version(): number;
  /** The catalogue's answer of an API URL, with the products in it and their stock. */
  stockedAnswer(url: string): StockedAnswer | Promise<StockedAnswer> | undefined;
  stockSince(id: string, since: number): number | undefined;
  stockSeq(): number;
}

/** Rendered pages kept at once, and their bytes (a category page is about 75 kB). */
const PAGES_KEPT = 500;
const PAGE_BYTES_KEPT = 32 * 1024 * 1024;
/**
 * A page is rendered again at least this often. Until then, a page whose data did not change but for
 * stock figures is kept when its TTL ends (see `refresh`): the product page's "In stock" figure may be
 * this old in the HTML, and the app shows the current one once it runs (ProductPage).
 */
export const PAGE_MAX_AGE_MS = 60_000;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What a rendered page was made of (issue 28): the catalogue answers it read (by what they show
 * besides stock), the products in them and which were sold out. It is rendered again when one of
 * those products sells out or comes back, or when an answer's content changed; not for a stock change.
 */
interface Made {
  answers: { url: string; content: string }[];
  ids: string[];
  soldOut: boolean[];
  /** The catalogue's stockSeq when the render started, and when the page was last found right. */
  since: number;
  checkedAt: number;
  renderedAt: number;
}

/** What the server render made of a URL, as kept. */
export type Rendered =
  | { kind: 'page'; status: number; answer: CachedAnswer; made: Made }
  | { kind: 'redirect'; status: 301 | 302; location: string }
  | { kind: 'shell' };

export interface PagesOptions {
  app: App;
  catalogue: PageCatalogue;
  ttlMs: number;
  now?: () => number;
}

/**
 * Rendered pages, kept like the catalogue answers they are made of (lib/kept.ts), under the build, the
 * catalogue's version, the site and the URL: every visitor gets the same page (the visitor's own
 * state, cart and login, is drawn in the browser), so a busy page is rendered once in a while instead
 * of once per request (a category page took about 8 ms of CPU: 125 pages/s at 50 connections).
 */
export function createPages({ app, catalogue, ttlMs, now = Date.now }: PagesOptions) {
  const kept = keptValues<Rendered>({
    ttlMs,
    now,
    maxEntries: PAGES_KEPT,
    sizeOf: (page) => (page.kind === 'page' ? page.answer.body.length : 0),
    maxSize: PAGE_BYTES_KEPT,
  });

  /**
   * The page's API calls, answered by this app in-process: the catalogue's kept answers as they are
   * (noting them in `made`), anything else through the app's routes (same validation, same JSON, no
   * socket).
   */
  const fetchFor =
    (made: Made): typeof fetch =>
    async (input, init) => {
      const url = new URL(new Request(input, init).url);
      const path = url.pathname + url.search;
      const answer = await Promise.resolve(catalogue.stockedAnswer(path)).catch(() => undefined);
      if (answer) {
        const { ids, stocks } = answer.stock();
        made.answers.push({ url: path, content: answer.content });
        for (let i = 0; i < ids.length; i += 1) {
          made.ids.push(ids[i]!);
          made.soldOut.push(stocks[i]! <= 0);
        }
        return new Response(answer.current().body, { status: 200, headers: { 'content-type': JSON_TYPE } });
      }
      const injected = await app.inject({
        method: 'GET',
        url: path,
        headers: { accept: 'application/json' },
      });
      return new Response(injected.rawPayload, {
        status: injected.statusCode,
        headers: { 'content-type': String(injected.headers['content-type'] ?? 'application/json') },
      });
    };

  async function render(ssr: SsrModule, template: Template, url: string, origin: string): Promise<Rendered> {
    const since = catalogue.stockSeq();
    const made: Made = { answers: [], ids: [], soldOut: [], since, checkedAt: since, renderedAt: now() };
    const result = await ssr.render({ url, origin, fetch: fetchFor(made) });
    if (!result) return { kind: 'shell' };
    if (result.kind === 'redirect') return result;
    return { kind: 'page', status: result.status, answer: cachedAnswer(pageHtml(template, result)), made };
  }

  /** False when a product the page shows sold out or came back since it was rendered. */
  function stillRight(page: Rendered): boolean {
    if (page.kind !== 'page') return true;
    const { made } = page;
    const seq = catalogue.stockSeq();
    if (made.checkedAt === seq) return true;
    for (let i = 0; i < made.ids.length; i += 1) {
      const stock = catalogue.stockSince(made.ids[i]!, made.since);
      if (stock !== undefined && stock <= 0 !== made.soldOut[i]) return false;
    }
    made.checkedAt = seq;
    return true;
  }

  /**
   * A page whose TTL ended: kept as it is when every answer it was made of still shows the same
   * (their own TTL refreshed them from the database) and no product in it sold out or came back,
   * else rendered again. A sale changes stock figures all the time, and rendering each page again
   * every TTL took a sixth of the shop's CPU while ten customers checked out.
   */
  async function refresh(
    previous: Rendered | undefined,
    renderAgain: () => Promise<Rendered>,
  ): Promise<Rendered> {
    if (previous?.kind !== 'page' || now() - previous.made.renderedAt >= PAGE_MAX_AGE_MS)
      return renderAgain();
    for (const { url, content } of previous.made.answers) {
      const answer = await Promise.resolve(catalogue.stockedAnswer(url)).catch(() => undefined);
      if (answer?.content !== content) return renderAgain();
    }
    return stillRight(previous) ? previous : renderAgain();
  }

  return {
    /** The page at `url` (rendered, or kept); `key` names the build, the version and the site too. */
    get(key: string, ssr: SsrModule, template: Template, url: string, origin: string) {
      const renderAgain = () => render(ssr, template, url, origin);
      return kept.get(key, (previous) => refresh(previous, renderAgain), stillRight);
    },
  };
}
