import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests run the shared package from its TypeScript source, so `npm test` needs no build first.
  // Node-environment tests resolve through the SSR settings, not the top-level ones.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Migrates once (PGlite dump or PostgreSQL template); each test file then starts from a copy.
    globalSetup: ['./src/test/global-setup.ts'],
    // argon2 hashing and database start-up make API tests slower than unit tests.
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
