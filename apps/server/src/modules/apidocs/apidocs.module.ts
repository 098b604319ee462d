import type { Config } from '../../config.js';
import type { App } from '../../lib/http.js';

/**
 * Issue 37: the API described. GET /api/openapi.json (OpenAPI 3.1, generated from the zod schemas the
 * routes validate with, so it cannot drift) and /api/docs (a reference page for it). Registered before
 * every route, so it sees them all.
 */
export async function registerApiDocs(_app: App, _options: { config: Pick<Config, 'publicUrl'> }) {
  // Built in the next commits.
}
