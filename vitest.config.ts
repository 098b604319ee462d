import { defineConfig } from 'vitest/config';

// One `npm test` runs every unit, API and component test (the embedded database, no server needed).
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web'],
  },
});
