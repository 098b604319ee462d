// `npm run db:seed [-- --products N]`: migrate, seed an empty catalogue (and generated products up to N),
// and make sure the admin exists.
import { loadConfig } from '../config.js';
import { migrate, openDatabase } from '../db/client.js';
import { seedGenerated } from '../db/seed/generated.js';
import { ensureAdmin, seedIfEmpty } from '../db/seed/index.js';
import { createStorage } from '../lib/storage.js';
import { CliError, consoleLog, runCli } from './run-cli.js';

/** `--products N`: generated products until the catalogue holds N (issue 13, large-catalogue benchmarks). */
function productsWanted(argv: string[]): number | undefined {
  const at = argv.indexOf('--products');
  if (at < 0) return undefined;
  const n = Number(argv[at + 1]);
  if (!Number.isSafeInteger(n) || n < 1 || n > 10_000_000) {
    throw new CliError('--products needs a whole number of products from 1 to 10,000,000');
  }
  return n;
}

await runCli(async () => {
  const wanted = productsWanted(process.argv.slice(2));
  const config = loadConfig();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrate(handle.db);
    consoleLog.info(`Applied ${applied} migration(s) to the ${handle.kind} database`);
    const storage = await createStorage(config);
    const seeded = await seedIfEmpty({ db: handle.db, storage, log: consoleLog });
    if (seeded === 0) consoleLog.info('The catalogue already has products: nothing seeded');
    if (wanted !== undefined) await seedGenerated({ db: handle.db, storage, log: consoleLog, total: wanted });
    const admin = await ensureAdmin({
      db: handle.db,
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      log: consoleLog,
    });
    // A terminal, not the server's log: shown to whoever ran the command, once.
    if (admin.generatedPassword) {
      consoleLog.warn(
        `Admin login: ${config.adminEmail} / ${admin.generatedPassword} (shown only this once)`,
      );
    }
  } finally {
    await handle.close();
  }
});
