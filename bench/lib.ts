// Helpers the benchmarks share.
import pg from 'pg';

/**
 * Drops and creates the database named in `url`, through the server's `postgres` database. Answers
 * false when PostgreSQL cannot be reached, so a benchmark can measure PGlite alone and say so.
 */
export async function freshPostgresDatabase(url: string): Promise<boolean> {
  const adminUrl = new URL(url);
  const dbName = adminUrl.pathname.slice(1);
  adminUrl.pathname = '/postgres';
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  try {
    await client.connect();
  } catch {
    return false;
  }
  try {
    await client.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${dbName}"`);
    return true;
  } finally {
    await client.end();
  }
}

/** The p-th percentile of ascending samples (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
