// `npm run db:seed -w apps/server`: migrate, seed an empty catalogue and make sure the admin exists.
import { loadConfig } from '../../config.js';
import { createStorage } from '../../lib/storage.js';
import { migrate, openDatabase } from '../client.js';
import { consoleLog, runCli } from '../cli.js';
import { ensureAdmin, seedIfEmpty } from './index.js';

await runCli(async () => {
  const config = loadConfig();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrate(handle.db);
    consoleLog.info(`Applied ${applied} migration(s) to the ${handle.kind} database`);
    const storage = await createStorage(config);
    const seeded = await seedIfEmpty({ db: handle.db, storage, log: consoleLog });
    if (seeded === 0) consoleLog.info('The catalogue already has products: nothing seeded');
    const admin = await ensureAdmin({ db: handle.db, config, log: consoleLog });
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
