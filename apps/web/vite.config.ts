import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const apiTarget = process.env.VITE_API_TARGET ?? 'http://localhost:3000';

export default defineConfig(({ isSsrBuild, mode }) => {
  const isProduction = mode === 'production';
  return {
    plugins: [react(), tailwindcss()],
    // Use the shared package's TypeScript sources directly (STACK.md gotcha).
    resolve: {
      conditions: ['source', 'module', 'browser', 'development|production'],
      // react-router's package exports only its development build to bundlers; its production build
      // (the same API without dev warnings, 0.5 kB less gzipped) ships beside it.
      alias: isProduction
        ? [
            {
              find: /^react-router$/,
              replacement: fileURLToPath(
                import.meta.resolve('react-router').replace('/development/', '/production/'),
              ),
            },
          ]
        : [],
    },
    server: {
      port: 5173,
      proxy: { '/api': apiTarget, '/uploads': apiTarget },
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      sourcemap: false,
      target: 'es2022',
      copyPublicDir: !isSsrBuild,
      // One stylesheet for the whole app, which every page has from the start (linked by index.html, or
      // written into the pages the server renders). Split, a lazy chunk named it as a dependency, and
      // Vite's loader, seeing no <link> for it on a server-rendered page, downloaded it again and
      // held the chunk until it had (issue 10: the product page's start).
      cssCodeSplit: false,
      rolldownOptions: {
        output: {
          // The browser: everything the first page needs in one file (split, it compresses worse and
          // costs requests). The server: one file, which it can import afresh after a rebuild.
          codeSplitting: isSsrBuild ? false : { groups: [{ name: 'app', tags: ['$initial'] }] },
          // Lazy chunks are named by their hash alone: the first download lists every one of them (the
          // lazy routes' imports), and the pages' names in it cost about 360 bytes gzipped (issue 10).
          ...(isSsrBuild ? {} : { chunkFileNames: 'assets/c-[hash].js' }),
        },
      },
    },
    // The server render (npm run build's second step, into dist/.ssr) carries its libraries with it, built
    // for production: the server imports one file, whatever NODE_ENV says and wherever it is deployed.
    ssr: { noExternal: true, target: 'node' },
    ...(isSsrBuild && { define: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
  };
});
