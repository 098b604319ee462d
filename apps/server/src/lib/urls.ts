/** Turns a stored, site-relative URL (`/uploads/...`) into the one the API answers. */
export type PublicUrlOf = (path: string) => string;

/** Without PUBLIC_URL the API answers paths as stored: relative to the shop's own origin. */
export const relativeUrls: PublicUrlOf = (path) => path;

/**
 * With PUBLIC_URL (issue 8) a front end on another origin, or a mobile app, gets absolute image URLs:
 * a site-relative path gains the public base; anything already absolute is left alone.
 */
export function publicUrls(publicUrl: string | undefined): PublicUrlOf {
  if (!publicUrl) return relativeUrls;
  return (path) => (path.startsWith('/') && !path.startsWith('//') ? `${publicUrl}${path}` : path);
}

/** `host[:port]`: DNS labels or an IPv4 address, or a bracketed IPv6 address. Nothing else. */
const PLAIN_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** PUBLIC_URL as a base (origin plus any path, percent-encoded, no trailing slash). */
export function publicBase(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The absolute base of every URL the shop writes into a page or a sitemap (canonical links, Open
 * Graph, sitemap entries): PUBLIC_URL when set, else the origin the request came to (fastify reads
 * X-Forwarded-Proto/-Host only from a trusted proxy, TRUST_PROXY). The Host header is the client's to
 * write, so anything that is not a plain `host[:port]` is replaced, never copied into the answer.
 */
export function siteBase(
  request: { protocol: string; host: string },
  publicUrl: string | undefined,
  port: number,
): string {
  if (publicUrl) return publicBase(publicUrl);
  const protocol = request.protocol === 'https' ? 'https' : 'http';
  const host = request.host;
  if (host.length <= 255 && PLAIN_HOST.test(host)) return `${protocol}://${host.toLowerCase()}`;
  return port === 0 || port === 80 ? 'http://localhost' : `http://localhost:${port}`;
}

/** A connection URL fit to print: its password, if any, as `***`; `unparsable` when it is not a URL. */
export function redactUrl(url: string, unparsable: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return unparsable;
  }
}
