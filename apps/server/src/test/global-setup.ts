import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { type Database, PGLITE_OPTIONS, migrate, openDatabase } from '../db/client.js';
import * as schema from '../db/schema/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set on PGlite runs: a migrated data directory dump to start each test file's database from. */
    pgliteDumpFile: string;
    /** Set on PostgreSQL runs (TEST_DATABASE_URL): each test file copies this migrated template. */
    pgTemplateDatabase: string;
  }
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** One statement on the server's maintenance connection (create or drop a database). */
export async function adminQuery(adminUrl: string, query: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** A new PostgreSQL database named `<prefix>_<random>` (a copy of `template` if given), and its drop. */
export async function scratchDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}${template ? ` template ${template}` : ''}`);
  return {
    url: withDatabase(adminUrl, name),
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;

  if (!adminUrl) {
    const dir = mkdtempSync(path.join(tmpdir(), 'pv-test-'));
    // initdb (~4 s) and the migrations run once here instead of in every test file.
    const client = await PGlite.create(PGLITE_OPTIONS);
    await migrate(drizzle(client, { schema }) as unknown as Database);
    const dump = await client.dumpDataDir('none');
    await client.close();
    const file = path.join(dir, 'migrated.tar');
    writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
    project.provide('pgliteDumpFile', file);
    project.provide('pgTemplateDatabase', '');
    return () => rmSync(dir, { recursive: true, force: true });
  }

  const template = `pv_test_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.query(`create database ${template}`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({ databaseUrl: withDatabase(adminUrl, template), dataDir: tmpdir() });
  try {
    await migrate(handle.db);
  } finally {
    // A template with an open connection cannot be copied.
    await handle.close();
  }
  project.provide('pgliteDumpFile', '');
  project.provide('pgTemplateDatabase', template);

  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`drop database if exists ${template} with (force)`);
    } finally {
      await client.end();
    }
  };
}
