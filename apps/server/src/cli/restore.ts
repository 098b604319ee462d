// `npm run db:restore -- FILE [--force]` (issue 15, docs/backups.md): puts a backup from
// GET /api/admin/backup back into DATA_DIR (embedded database; stop the shop first) or DATABASE_URL,
// and its images into the shop's storage. Refuses to replace a shop's data without --force.
import path from 'node:path';
import { loadConfig } from '../config.js';
import { createStorage } from '../lib/storage.js';
import { restoreBackup } from './restore-backup.js';
import { CliError, consoleLog, runCli } from './run-cli.js';

const USAGE = 'Usage: npm run db:restore -- BACKUP_FILE.tar.gz [--force]';

function parseArgs(argv: string[]): { file: string; force: boolean } {
  const force = argv.includes('--force');
  const rest = argv.filter((arg) => arg !== '--force');
  const unknown = rest.find((arg) => arg.startsWith('-'));
  if (unknown) throw new CliError(`Unknown option ${unknown}\n${USAGE}`);
  if (rest.length !== 1 || !rest[0]) throw new CliError(USAGE);
  // npm runs the script inside apps/server; a relative path means where the command was typed.
  const base =
    process.env.INIT_CWD && process.env.INIT_CWD.trim() !== '' ? process.env.INIT_CWD : process.cwd();
  return { file: path.resolve(base, rest[0]), force };
}

await runCli(async () => {
  const { file, force } = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  if (!config.databaseUrl) {
    consoleLog.warn('Restoring the embedded database: the shop must be stopped until this has finished.');
  }
  await restoreBackup({
    file,
    force,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    storage: await createStorage(config),
    pgRestorePath: config.pgRestorePath,
    log: consoleLog,
  });
});
