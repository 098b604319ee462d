/**
 * Where to go after a successful login or registration: the `?redirect=` target when it is a path on
 * this site, else the home page. `//evil.example` and `/\evil.example` are protocol-relative URLs
 * that browsers resolve to another host, so they are refused (open-redirect).
 */
export function safeRedirect(target: string | null | undefined): string {
  if (!target || !target.startsWith('/')) return '/';
  if (target.startsWith('//') || target.startsWith('/\\')) return '/';
  // Control characters (tabs, newlines) are stripped by URL parsers and could turn `/\t/x` into `//x`.
  if ([...target].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return '/';
  return target;
}

/** `?redirect=` suffix that carries a safe target from /login to /register and back. */
export function redirectQuery(target: string): string {
  return target === '/' ? '' : `?redirect=${encodeURIComponent(target)}`;
}
