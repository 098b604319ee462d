import { createHash } from 'node:crypto';
import { ENTRY_LOADER } from '@pixel-vault/shared';

// ENTRY_LOADER (packages/shared/src/entry-loader.ts): how a rendered page starts the app, and what it
// records for the app until then (issue 29).

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
