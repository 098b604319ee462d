import { defineConfig } from 'vitest/config';

// One `npm test` runs every unit, API and component test (the embedded database, no server needed),
// and the tests of the root scripts (scripts/*.test.mjs: the build stamps of `npm start`).
export default defineConfig({
  test: {
    projects: [
      'packages/shared',
      'apps/server',
      'apps/web',
      { test: { name: 'scripts', environment: 'node', include: ['scripts/**/*.test.mjs'] } },
    ],
  },
});
