// `npm run db:reset`: throws away every product, user, order and mail, then starts over from
// migrations + seed + admin. Meant for development and demos.
import { rm } from 'node:fs/promises';
import { loadConfig } from '../config.js';
import { migrate, openDatabase } from '../db/client.js';
import { ensureAdmin, seedDemoGiftCard, seedIfEmpty } from '../db/seed/index.js';
import { createStorage } from '../lib/storage.js';
import { dropEverything } from './database.js';
import { consoleLog, redactDatabaseUrl, runCli } from './run-cli.js';

await runCli(async () => {
  const config = loadConfig();

  if (config.databaseUrl) {
    const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      await dropEverything(handle.db);
      consoleLog.info(`Dropped every table of ${redactDatabaseUrl(config.databaseUrl)}`);
    } finally {
      await handle.close();
    }
  } else {
    await rm(config.pgliteDir, { recursive: true, force: true });
    consoleLog.info(`Deleted the embedded database ${config.pgliteDir}`);
  }
  for (const dir of [config.uploadsDir, config.mailDir]) {
    await rm(dir, { recursive: true, force: true });
    consoleLog.info(`Deleted ${dir}`);
  }
  if (config.s3) {
    // A bucket may be shared with other data, and its keys carry content hashes: the seed below
    // rewrites the same keys, so nothing is emptied there.
    consoleLog.info(
      `Kept the images in the bucket ${config.s3.bucket}: remove old uploads there by hand if you wish`,
    );
  }

  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrate(handle.db);
    consoleLog.info(`Applied ${applied} migration(s)`);
    const seeded = await seedIfEmpty({
      db: handle.db,
      storage: await createStorage(config),
      log: consoleLog,
    });
    const demoGiftCard = seeded > 0 ? await seedDemoGiftCard({ db: handle.db, log: consoleLog }) : undefined;
    const admin = await ensureAdmin({
      db: handle.db,
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      log: consoleLog,
    });
    // A terminal, not the server's log: the secrets are shown to whoever ran the command, once.
    if (demoGiftCard) consoleLog.warn(`Demo gift card: ${demoGiftCard} (shown only this once)`);
    if (admin.generatedPassword) {
      consoleLog.warn(
        `Admin login: ${config.adminEmail} / ${admin.generatedPassword} (shown only this once)`,
      );
    }
  } finally {
    await handle.close();
  }
});
