import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { ENTRY_LOADER_CSP } from './entry-loader.js';

/**
 * Content security policy the React app and PayPal's JS SDK (buttons, card fields, popups) run under.
 * 'unsafe-inline' styles: React sets style attributes and PayPal injects style tags. One inline script,
 * by its hash: the loader that starts the app on pages the server rendered (entry-loader.ts).
 */
export const HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ENTRY_LOADER_CSP, 'https://www.paypal.com', 'https://*.paypal.com'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https://*.paypal.com', 'https://*.paypalobjects.com'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", 'https://*.paypal.com'],
      frameSrc: ['https://*.paypal.com'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // PayPal's checkout opens a popup that must be able to report back to the opener.
  crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
};

/**
 * The page policy, with images also allowed from `imageOrigins`: with PUBLIC_URL on another host than
 * the one a page is served from (a CDN name, an API host), the API's absolute image URLs point there.
 */
export function helmetOptions(imageOrigins: readonly string[] = []): HelmetOptions {
  const csp = HELMET_OPTIONS.contentSecurityPolicy as { directives: Record<string, string[]> };
  const imgSrc = [...(csp.directives.imgSrc ?? []), ...imageOrigins];
  return {
    ...HELMET_OPTIONS,
    contentSecurityPolicy: { useDefaults: false, directives: { ...csp.directives, imgSrc } },
  };
}

/**
 * The headers helmet would set, computed once. The policy is the same for every response, and
 * running helmet's middleware per request (as @fastify/helmet does) costs a noticeable share of
 * the catalogue's throughput.
 */
export function securityHeaders(options: Readonly<HelmetOptions> = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * JSON answers are never rendered as documents, so they get the short set OWASP's REST Security
 * Cheat Sheet recommends instead of the page policy: each header costs per response, and the
 * catalogue API is the hottest path of the shop.
 */
export function apiSecurityHeaders(pageHeaders: Record<string, string>): Record<string, string> {
  const api: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
  };
  const hsts = pageHeaders['strict-transport-security'];
  if (hsts) api['strict-transport-security'] = hsts;
  return api;
}
