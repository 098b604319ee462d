import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const apiTarget = process.env.VITE_API_TARGET ?? 'http://localhost:3000';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
  // Use the shared package's TypeScript sources directly (STACK.md gotcha).
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
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
  },
  // The server render (npm run build's second step, into dist/.ssr) carries its libraries with it, built
  // for production: the server imports one file, whatever NODE_ENV says and wherever it is deployed.
  ssr: { noExternal: true, target: 'node' },
  ...(isSsrBuild && { define: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
}));
