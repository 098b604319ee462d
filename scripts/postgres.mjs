// What scripts/test-pg.mjs and scripts/test-cluster.mjs both ask of the PostgreSQL they are given.
import pg from 'pg';

/** The URL with its password starred, for messages. */
export function redact(value) {
  try {
    const parsed = new URL(value);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** Connects once: the server's version and whether the role may create databases, or the error. */
export async function checkPostgres(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query(
      'select current_setting($1) as version, rolcreatedb or rolsuper as can_create from pg_roles where rolname = current_user',
      ['server_version'],
    );
    return { ok: true, version: rows[0]?.version, canCreate: rows[0]?.can_create };
  } catch (error) {
    return { ok: false, error };
  } finally {
    await client.end().catch(() => {});
  }
}
