import { securityHeaders } from '../../lib/security-headers.js';

/**
 * The reference page's policy (issue 37): swagger-ui's own files from this origin, nothing inline
 * but styles (its React components set style attributes), the document fetched from here. Only the
 * page and the files its routes send get it; every other answer keeps the app's policies.
 */
export const DOCS_PAGE_HEADERS: Readonly<Record<string, string>> = securityHeaders({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
    },
  },
  crossOriginResourcePolicy: { policy: 'same-origin' },
});
