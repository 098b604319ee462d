import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RenderPage, RenderResult } from '@pixel-vault/shared';
import { deferEntry } from '../../lib/entry-loader.js';

/** Where the server-side render of the web app is built, inside its dist (a dot directory: never served). */
export const SSR_ENTRY = path.join('.ssr', 'entry-server.js');

export interface SsrModule {
  render: RenderPage;
}

/** index.html cut at its markers: the head block to replace and the empty root element to fill. */
export interface Template {
  beforeHead: string;
  /** From the end of the head block to the inside of `<div id="root">`. */
  beforeRoot: string;
  /** From the root element's end tag on. */
  afterRoot: string;
}

const HEAD_BLOCK = /<!--app-head-->[\s\S]*?<!--\/app-head-->/;
const ROOT_OPEN = '<div id="root">';
const ROOT = `${ROOT_OPEN}</div>`;

export function parseTemplate(html: string): Template | undefined {
  const head = HEAD_BLOCK.exec(html);
  const root = html.indexOf(ROOT);
  if (!head || root < head.index) return undefined;
  return {
    beforeHead: html.slice(0, head.index),
    beforeRoot: html.slice(head.index + head[0].length, root + ROOT_OPEN.length),
    afterRoot: html.slice(root + ROOT_OPEN.length),
  };
}

/** A rendered page in the template: its head tags, its markup in #root, its data right after it. */
export function pageHtml(template: Template, page: Extract<RenderResult, { kind: 'page' }>): string {
  const rest = template.afterRoot.slice('</div>'.length);
  return `${template.beforeHead}${page.head}${template.beforeRoot}${page.html}</div>
    <script type="application/json" id="pv-state">${page.state}</script>${rest}`;
}

const STYLESHEET = /<link rel="stylesheet"(?: crossorigin)? href="(\/assets\/[\w.-]+\.css)">/g;

/**
 * The app's stylesheet written into the pages the server renders, instead of linked: the first paint
 * needs no second request (issue 10: on a phone's network that request is most of the wait). The rest
 * of the visit is drawn in the browser, so nothing is lost by not caching it separately.
 */
export async function inlineStylesheets(html: string, webDistDir: string): Promise<string> {
  let out = html;
  for (const [link, href] of html.matchAll(STYLESHEET)) {
    const css = await readFile(path.join(webDistDir, href!), 'utf8');
    out = out.replace(link, () => `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`);
  }
  return out;
}

/** A rebuilt or newly built web app is served at most this long after its files change. */
export const BUILD_CHECK_MS = 1000;

interface Loaded {
  /** Changes with every build: what is kept from one build is not used with the next. */
  version: string;
  template: Template | undefined;
  ssr: SsrModule | undefined;
}

/**
 * The built web app as the server uses it: index.html (as a template) and the render module. The web
 * app may be built, or rebuilt, while the server runs: both are reloaded when index.html or the render
 * module changes, seen within BUILD_CHECK_MS.
 */
export function createWebApp(
  webDistDir: string,
  log: { warn(obj: object, msg: string): void },
  now: () => number = Date.now,
) {
  const indexFile = path.join(webDistDir, 'index.html');
  const entryFile = path.join(webDistDir, SSR_ENTRY);
  let loaded: Promise<Loaded> | undefined;
  let loadedVersion = '';

  async function load(version: string, hasEntry: boolean): Promise<Loaded> {
    const html = await readFile(indexFile, 'utf8');
    // A rendered page is shown before its app starts: its entry is asked for once it has painted.
    const template = parseTemplate(deferEntry(await inlineStylesheets(html, webDistDir)));
    let ssr: SsrModule | undefined;
    if (template && hasEntry) {
      // A query per build: a rebuilt module is imported afresh, not from the module cache.
      ssr = (await import(`${pathToFileURL(entryFile).href}?v=${encodeURIComponent(version)}`)) as SsrModule;
    }
    if (!ssr) log.warn({ webDistDir }, 'the web app has no server render: pages are drawn in the browser');
    return { version, template, ssr };
  }

  /** The current build, or undefined when the web app is not built. */
  async function look(): Promise<Loaded | undefined> {
    const [index, entry] = await Promise.all([
      stat(indexFile).catch(() => undefined),
      stat(entryFile).catch(() => undefined),
    ]);
    if (!index?.isFile()) return undefined;
    const hasEntry = entry?.isFile() === true;
    const version = `${index.mtimeMs}-${index.size}-${hasEntry ? entry.mtimeMs : 0}`;
    if (!loaded || loadedVersion !== version) {
      loadedVersion = version;
      loaded = load(version, hasEntry);
      loaded.catch(() => {
        // A half-written build: try again on the next request.
        if (loadedVersion === version) loadedVersion = '';
      });
    }
    return loaded;
  }

  // The files are looked at once per BUILD_CHECK_MS, not on every page: two stat calls per page
  // cost more than a rebuild picked up a second later is worth. A build that cannot be loaded (half
  // written) counts as none until the next look: a 503, never a 500.
  let looked: { at: number; build: Promise<Loaded | undefined> } | undefined;
  return function current(): Promise<Loaded | undefined> {
    const at = now();
    if (looked === undefined || at - looked.at >= BUILD_CHECK_MS) {
      looked = { at, build: look().catch(() => undefined) };
    }
    return looked.build;
  };
}
