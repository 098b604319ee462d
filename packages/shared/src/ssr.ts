/**
 * The contract between the server and the web app's server render (apps/web/src/entry-server.tsx,
 * built into the web app's dist/.ssr): what the server asks and what it gets back (issue 10).
 */
export interface RenderRequest {
  /** Path and query of the page asked for. */
  url: string;
  /** The shop's public origin (PUBLIC_URL, else the request's), for canonical and image URLs. */
  origin: string;
  /** Answers the page's API calls inside the server (the app itself, not the network). */
  fetch: typeof fetch;
}

/** A page to send (its head tags, its markup, its hydration data as script-safe JSON), or a redirect. */
export type RenderResult =
  | { kind: 'page'; status: number; head: string; html: string; state: string }
  | { kind: 'redirect'; status: 301 | 302; location: string };

/** What the render module exports. Undefined: the page is not rendered on the server. */
export type RenderPage = (request: RenderRequest) => Promise<RenderResult | undefined>;
