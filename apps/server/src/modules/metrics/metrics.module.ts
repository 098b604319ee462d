import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { App } from '../../lib/http.js';

/**
 * Issue 37: the shop's health for Prometheus. GET /metrics (METRICS_TOKEN as a bearer token; unset,
 * the route does not exist).
 */
export interface MetricsModule {
  register(app: App): Promise<void>;
}

export function createMetricsModule(_options: {
  config: Pick<Config, 'metricsToken'>;
  db: Database;
}): MetricsModule {
  return {
    async register() {
      // Built in the next commits.
    },
  };
}
