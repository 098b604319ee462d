// pg_dump for a shop on PostgreSQL (issue 15): run with the password kept off its command line, and
// a failure to start turned into a 503 with the client tools to install.
import { type ChildProcess, spawn } from 'node:child_process';
import { AppError } from '../../lib/errors.js';

/**
 * A libpq connection for pg_dump / pg_restore with the password taken out of the URL and handed over
 * in PGPASSWORD: a command line is visible to every user of the machine (`ps`), the environment is not.
 */
export function libpqConnection(connectionString: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(connectionString);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return {
    dbname: url.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}), PGCONNECT_TIMEOUT: '10' },
  };
}

/** `apt-get install postgresql-client-16` for a PostgreSQL 16 server. */
function clientToolsAdvice(tool: string, major: number | undefined, setting: string): string {
  const version = major ? ` ${major}` : '';
  const pkg = major ? `postgresql-client-${major}` : 'postgresql-client';
  return `Install the PostgreSQL${version} client tools (Debian/Ubuntu: apt-get install ${pkg}) or set ${setting} to the path of a ${tool}${major ? ` of version ${major} or newer` : ''}.`;
}

/** pg_dump under way: its output (first bytes already read), its exit, its messages. */
export interface PgDump {
  child: ChildProcess;
  output: AsyncIterable<Buffer>;
  exited: Promise<{ error: NodeJS.ErrnoException } | { code: number | null }>;
  stderr: () => string;
}

/** Runs pg_dump and waits for its first bytes: a failure to start becomes a 503, never a cut 200. */
export async function startPgDump(
  pgDumpPath: string,
  connectionString: string,
  serverMajor: number,
  serverVersion: string,
): Promise<PgDump> {
  const { dbname, env } = libpqConnection(connectionString);
  const child = spawn(pgDumpPath, ['--format=custom', `--dbname=${dbname}`], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errorText = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (errorText.length < 16_384) errorText += chunk.toString('utf8');
  });
  const exited = new Promise<{ error: NodeJS.ErrnoException } | { code: number | null }>((resolve) => {
    child.once('error', (error) => resolve({ error }));
    child.once('close', (code) => resolve({ code }));
  });
  // Read from now on, without a gap: once pg_dump exits, node drains (throws away) the output of a
  // pipe nobody is reading, and a small database is dumped before the response even starts.
  const chunks = (child.stdout as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const first = await chunks.next().catch(() => undefined);
  if (first && !first.done) {
    const output = (async function* () {
      yield first.value;
      for (;;) {
        const next = await chunks.next();
        if (next.done) return;
        yield next.value;
      }
    })();
    return { child, output, exited, stderr: () => errorText };
  }

  const outcome = await exited;
  child.kill('SIGTERM');
  if ('error' in outcome) {
    const why =
      outcome.error.code === 'ENOENT'
        ? `pg_dump was not found (${pgDumpPath})`
        : `pg_dump could not be run (${pgDumpPath}: ${outcome.error.code ?? outcome.error.message})`;
    throw new AppError(
      503,
      `Backups of a shop on PostgreSQL need pg_dump: ${why}. ${clientToolsAdvice('pg_dump', serverMajor, 'PG_DUMP_PATH')}`,
      'BACKUP_UNAVAILABLE',
    );
  }
  const text = errorText.trim();
  if (/version mismatch/i.test(text)) {
    const dumpVersion = /pg_dump version:\s*([\d.]+)/i.exec(text)?.[1];
    throw new AppError(
      503,
      `pg_dump${dumpVersion ? ` ${dumpVersion}` : ''} cannot back up this PostgreSQL ${serverVersion}. ${clientToolsAdvice('pg_dump', serverMajor, 'PG_DUMP_PATH')}`,
      'BACKUP_UNAVAILABLE',
    );
  }
  const firstLine = text.split('\n').find((line) => line.trim() !== '') ?? `exit code ${outcome.code}`;
  throw new AppError(503, `pg_dump could not back up the database: ${firstLine}`, 'BACKUP_UNAVAILABLE');
}
