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
