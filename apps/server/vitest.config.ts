import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
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
