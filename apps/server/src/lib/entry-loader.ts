import { createHash } from 'node:crypto';

/**
 * How a page the server rendered starts the app (issue 10): its entry module is asked for once the page
 * has loaded (its first images and font) and painted (its first contentful paint, then one more frame,
 * which draws what the load brought), at the shopper's first tap or key if that comes sooner, and after
 * 3 s whatever happens (a tab in the background paints nothing), instead of as soon as the head is read.
 *
 * Why: the page is already drawn and its links work without JavaScript, so the 100 kB entry module is
 * not what the shopper waits for first. Asked for at once, it shares a phone's bandwidth with the
 * page's largest image and font; Lighthouse's mobile simulation put it on the first paint's path
 * (LCP 1.6-1.9 s, FCP about 1.4 s). Asked for after the load, LCP was 0.9-1.2 s, FCP 0.8 s, and the
 * simulated time to interactive did not grow (it fell: 1.8-2.0 s against 1.9-2.4 s), because the
 * module then downloads alone. Started at the load event alone, it still came before the paint in 3
 * of 12 runs of the home page (its load can come first), and the LCP was 1.7 s again in those. Pages
 * drawn in the browser (cart, checkout, admin) keep the plain module script: nothing is painted
 * before their JavaScript runs.
 *
 * The script reads the entry's URL from its own `data-entry` attribute, so its text is the same for
 * every build and the page policy allows it by hash (`ENTRY_LOADER_CSP`), not by 'unsafe-inline'. A
 * copy of it planted with another `data-entry` could only start a script `script-src` already allows
 * (this origin or PayPal's, no 'strict-dynamic'), and only as a module, which a browser refuses unless
 * it is served as JavaScript: uploads are images.
 */
export const ENTRY_LOADER = `(function (script) {
  var src = script && script.dataset.entry;
  if (!src) return;
  var started = false;
  var early = ['pointerdown', 'keydown', 'touchstart', 'focusin'];
  function start() {
    if (started) return;
    started = true;
    early.forEach(function (type) { removeEventListener(type, start, true); });
    var entry = document.createElement('script');
    entry.type = 'module';
    entry.crossOrigin = '';
    entry.src = src;
    document.head.appendChild(entry);
  }
  var waiting = 2;
  function ready() {
    if (--waiting === 0) requestAnimationFrame(function () { setTimeout(start, 0); });
  }
  addEventListener('load', ready);
  try {
    new PerformanceObserver(function (list, observer) {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      ready();
    }).observe({ type: 'paint', buffered: true });
  } catch (error) {
    ready();
  }
  early.forEach(function (type) { addEventListener(type, start, { capture: true, passive: true }); });
  setTimeout(start, 3000);
})(document.currentScript);`;

/** The page policy's source for the loader: the hash of its exact text (CSP Level 2). */
export const ENTRY_LOADER_CSP = `'sha256-${createHash('sha256').update(ENTRY_LOADER).digest('base64')}'`;

/** The module script Vite writes into index.html for the app's entry. */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/;

/** index.html with its entry module started by the loader; unchanged when it has no such script. */
export function deferEntry(html: string): string {
  return html.replace(
    ENTRY_SCRIPT,
    (_script, src: string) => `<script data-entry="${src}">${ENTRY_LOADER}</script>`,
  );
}
