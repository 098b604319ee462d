/**
 * How a page the server rendered starts the app, and how nothing a shopper does before that is lost
 * (issues 10 and 29; docs/decisions/006-taps-before-the-app-starts.md). The server puts ENTRY_LOADER
 * inline in such a page (allowed by the hash of its text); the app (apps/web/src/app/earlyEvents.ts)
 * takes what it recorded right before React hydrates the page, and replays it once hydrated.
 *
 * When the app starts: its entry module is asked for once the page has loaded (its first images and
 * font) and painted (its first contentful paint, then one more frame), at the shopper's first tap or key
 * if that comes sooner, and after 3 s whatever happens (a tab in the background paints nothing). Asked
 * for at once, the 100 kB module shares a phone's bandwidth with the page's largest image and font, and
 * sat on the first paint's path (Lighthouse mobile: LCP 1.6-1.9 s against 0.9-1.2 s, issue 10).
 *
 * What happens meanwhile: the loader records, from its first line, every click (tap, or Enter and Space
 * on a button), form submission and edit of a field, in the capture phase on the window, so before
 * anything else sees it:
 * - a click on a link is left to the browser (the page it asks for is rendered by the server), unless
 *   an earlier action is still waiting: then it is held and replayed after that one, in order;
 * - a form with an `action` is sent by the browser the same way (the category search); any other form
 *   is held, and replayed by the app;
 * - a click on a checkbox or radio is not clicked again: its state is picked up, as a typed field's is;
 * - a click inside a label is left to the click the browser then gives its control.
 * While an action waits, `<html>` carries `data-pending` (the stylesheet shows a progress bar).
 * `stop()` ends the recording and answers the queue; it is called right before React's root exists,
 * after which React itself replays what reaches a part it has not hydrated yet. So every event is
 * handled once: by the browser, by the replay, or by React.
 *
 * Each record keeps its element, and the element's path from <html> (child indexes), in case the
 * hydration replaced it.
 *
 * The script reads the entry's URL from its own `data-entry` attribute, so its text is the same for
 * every build and the page policy allows it by hash, not by 'unsafe-inline'. A copy of it planted with
 * another `data-entry` could only start a script `script-src` already allows, and only as a module,
 * which a browser refuses unless it is served as JavaScript: uploads are images.
 */
export const ENTRY_LOADER = `(function (script) {
  var src = script && script.dataset.entry;
  if (!src) return;
  var html = document.documentElement;
  var queue = [];
  var actions = 0;
  var kinds = ['click', 'submit', 'input', 'change'];
  function pathOf(node) {
    var path = [];
    for (; node.parentElement; node = node.parentElement)
      path.unshift([].indexOf.call(node.parentElement.children, node));
    return path;
  }
  function record(event) {
    var target = event.target;
    var type = event.type;
    if (!target || !target.closest) return;
    if (type === 'click') {
      if (target.closest('label')) return;
      var link = target.closest('a[href]');
      if (link) {
        if (!actions) return;
        event.preventDefault();
        target = link;
      }
      if (/^(checkbox|radio)$/.test(target.type)) type = 'change';
    } else if (type === 'submit') {
      if (target.hasAttribute('action') && !actions) return;
      event.preventDefault();
      var last = queue[queue.length - 1];
      if (event.submitter && last && last.type === 'click' && last.target === event.submitter) return;
    }
    if (type === 'click' || type === 'submit') {
      actions++;
      html.setAttribute('data-pending', '');
    }
    queue.push({ type: type, target: target, path: pathOf(target) });
  }
  function stop() {
    kinds.forEach(function (type) { removeEventListener(type, record, true); });
    var taken = queue;
    queue = [];
    return taken;
  }
  kinds.forEach(function (type) { addEventListener(type, record, true); });
  window.__pixelVaultEarly = { stop: stop };

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
    entry.onerror = function () {
      stop();
      html.removeAttribute('data-pending');
    };
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

/**
 * The window property under which ENTRY_LOADER leaves its recorder for the app: `{ stop() }`, which ends
 * the recording and answers `{ type, target, path }[]` (apps/web/src/app/earlyEvents.ts reads it).
 */
export const EARLY_EVENTS_KEY = '__pixelVaultEarly';
