#!/usr/bin/env node
// `npm run test:pg`: the server's test files, unchanged, against a real PostgreSQL instead of
// PGlite. Each test file gets its own database copied from a migrated template.
import { spawn } from 'node:child_process';
import { checkPostgres, redact } from './postgres.mjs';

const DEFAULT_URL = 'postgres://pixelvault:pixelvault@127.0.0.1:5432/pixelvault_test';
const url = process.env.TEST_DATABASE_URL || DEFAULT_URL;

const check = await checkPostgres(url);
if (!check.ok) {
  console.error(`Cannot connect to PostgreSQL at ${redact(url)}:
  ${check.error?.message ?? check.error}

The PostgreSQL tests need a running server and a role that may create databases.
On Debian/Ubuntu:

  apt-get install -y postgresql
  pg_ctlcluster 15 main start        # or: pg_ctlcluster $(ls /etc/postgresql) main start
  su postgres -c "psql -c \\"CREATE ROLE pixelvault LOGIN SUPERUSER PASSWORD 'pixelvault'\\""
  su postgres -c "createdb -O pixelvault pixelvault_test"

Or point TEST_DATABASE_URL at another server (the role needs CREATEDB):

  TEST_DATABASE_URL=postgres://user:password@host:5432/db npm run test:pg
`);
  process.exit(1);
}
if (!check.canCreate) {
  console.error(
    `The role in ${redact(url)} may not create databases; each test file needs its own.\n` +
      '  Grant it with: ALTER ROLE <role> CREATEDB;',
  );
  process.exit(1);
}

console.log(`PostgreSQL ${check.version} at ${redact(url)}: running the server tests against it`);
const child = spawn('npx', ['vitest', 'run', '--project', 'server', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: url },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
