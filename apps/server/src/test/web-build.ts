import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webRoot = fileURLToPath(new URL('../../../web', import.meta.url));

/**
 * Builds the real web app (the browser bundle and the server render, as `npm run build` does) into a
 * temporary directory, for tests of the pages the server renders. Takes a few seconds.
 */
export async function buildWebApp(): Promise<string> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'pv-web-'));
  const { build } = await import('vite');
  const common = {
    root: webRoot,
    configFile: path.join(webRoot, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'error' as const,
  };
  // As `npm run build` runs it: the test runner's NODE_ENV=test would make React's JSX the dev kind.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ ...common, build: { outDir, emptyOutDir: true } });
    await build({
      ...common,
      build: { ssr: 'src/entry-server.tsx', outDir: path.join(outDir, '.ssr'), emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}

/**
 * The opening tag of every script element a page the server rendered holds: the app's loader
 * (lib/entry-loader.ts), the JSON-LD and the hydration data. Any other was opened by text a user typed.
 */
export const PAGE_SCRIPT_TAG =
  /^<script (data-entry="\/assets\/[\w-]+\.js"|type="application\/ld\+json"|type="application\/json" id="pv-state")>$/;
