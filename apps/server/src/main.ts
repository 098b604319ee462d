import { pino } from 'pino';
import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig, trustProxyWarning } from './config.js';
import { migrate, openDatabase } from './db/client.js';
import { databaseKnowsTimeZone } from './modules/admin/admin.service.js';
import { createPgliteMaintenance } from './db/maintenance.js';
import { DEMO_GIFT_CARD_CENTS, ensureAdmin, seedDemoGiftCard, seedIfEmpty } from './db/seed/index.js';
import { batchedDestination } from './lib/log-destination.js';
import { createStorage } from './lib/storage.js';
import { keepTickShape } from './lib/tick-shape.js';
import { createMailTransport } from './modules/mail/mail.transport.js';
import { createMailWorker } from './modules/mail/mail.worker.js';
import { createOrderExpiry } from './modules/orders/orders.expiry.js';
import { createPaymentReconciler } from './modules/payments/payments.reconciler.js';
import { createResetTokenCleanup } from './modules/users/users.reset.js';

/**
 * Log lines are written to stdout in batches of about this many characters (or every second).
 * Measured (issue 10), CPU per line: 4.1 us unbatched, 3.4 us at 4 kB and 7.7 us at 32 kB in
 * sonic-boom's own batching, which measures the whole pending batch again on every line; gathered
 * in lib/log-destination.ts instead, 1.9 us at 4 kB.
 */
const LOG_BATCH_CHARS = 4096;

/** In-flight requests get this long to finish on SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // A configuration mistake is the operator's to fix: the message says what, a stack would not help.
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main() {
  // First: a full garbage collection between ticks would otherwise leave every nextTick slower.
  keepTickShape();
  const config = readConfig();
  // Asynchronous stdout, written 4 kB at a time instead of a syscall per line, and at least every
  // second so a quiet shop's lines still show at once; what is left is written when the process
  // exits. A kill -9 loses at most the last second's lines.
  const logDestination = batchedDestination({ fd: 1, batchChars: LOG_BATCH_CHARS, flushMs: 1000 });
  const log = pino({ level: config.logLevel }, logDestination);
  // A hop count on a port clients can reach directly: per-address limits can be skipped (issue 28).
  const proxyWarning = trustProxyWarning(config);
  if (proxyWarning) log.warn({ trustProxy: config.trustProxy, host: config.host }, proxyWarning);

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: config.databasePoolSize,
    onIdleError: (error) => log.warn({ err: error }, 'idle database connection lost'),
    // Nothing works without it: exit, so whatever runs the shop starts it again (its files are kept).
    onDatabaseExit: (error) => {
      log.fatal({ err: error }, 'the embedded database stopped');
      log.flush();
      process.exit(1);
    },
  });
  log.info({ kind: database.kind }, 'database opened');
  const applied = await migrate(database.db);
  if (applied > 0) log.info({ applied }, 'migrations applied');
  if (!(await databaseKnowsTimeZone(database.db, config.shopTimeZone))) {
    console.error(
      `SHOP_TIMEZONE ${config.shopTimeZone} is unknown to the database: use another name of the same zone (e.g. Asia/Kolkata or Asia/Calcutta), or update the database's time-zone data`,
    );
    await database.close();
    process.exit(1);
  }

  // No autovacuum in the embedded database: the server vacuums it now and every hour (issue 13).
  const maintenance =
    database.kind === 'pglite'
      ? createPgliteMaintenance({ db: database.db, log: log.child({ worker: 'db-maintenance' }) })
      : undefined;

  const storage = await createStorage(config);
  if (config.s3) {
    const { bucket, prefix, endpoint } = config.s3;
    log.info({ bucket, prefix, endpoint }, 'product images are stored in the bucket of STORAGE_URL');
  }
  const seeded = await seedIfEmpty({ db: database.db, storage, log });
  const demoGiftCard = seeded > 0 ? await seedDemoGiftCard({ db: database.db, log }) : undefined;
  const admin = await ensureAdmin({
    db: database.db,
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
    log,
  });

  const transport = createMailTransport(config);
  const mailer = createMailWorker({ db: database.db, transport, log: log.child({ worker: 'mail' }) });
  mailer.start();
  log.info(
    transport.kind === 'smtp'
      ? 'mail is sent over SMTP'
      : `no SMTP_URL: mail is written to ${config.mailDir}`,
  );

  const app = await buildApp({
    config,
    db: database.db,
    storage,
    mailer,
    logger: log,
    // Several instances on one PostgreSQL drop each other's cached catalogue at once (issue 13).
    listen: database.listen,
    takeDatabaseReplies: database.takeReplies,
  });
  log.info(
    config.paypal ? { apiBase: config.paypal.apiBase, webhook: Boolean(config.paypal.webhookId) } : {},
    config.paypal
      ? 'payments go through PayPal'
      : 'no PAYPAL_CLIENT_ID / PAYPAL_CLIENT_SECRET: demo payments, no money moves',
  );
  // Returns the stock and gift-card money of unpaid orders whose hold ran out: now, then every minute.
  const expiry = createOrderExpiry({
    db: database.db,
    log: log.child({ worker: 'order-expiry' }),
    onStockMoved: (moved) => app.services.products.stockMoved(moved),
  });
  expiry.start();
  // Payments a crash left half done (captured at PayPal, not recorded) and captures of expired
  // orders: recorded, refunded or failed, now and then every RECONCILE_INTERVAL_SECONDS (a minute;
  // issue 9).
  const reconciler = createPaymentReconciler({
    db: database.db,
    payments: app.services.payments,
    refunds: app.services.refunds,
    log: log.child({ worker: 'payment-reconciler' }),
    intervalMs: config.reconcileIntervalMs,
  });
  reconciler.start();
  maintenance?.start();
  // Password reset links used or expired more than a day ago are deleted: now, then every hour.
  const resetTokenCleanup = createResetTokenCleanup({
    db: database.db,
    log: log.child({ worker: 'reset-token-cleanup' }),
  });
  resetTokenCleanup.start();

  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error('shutdown took too long, exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      // Stops accepting, lets in-flight requests finish, then the mail batch, then the database.
      await app.close();
      await reconciler.stop();
      await maintenance?.stop();
      await resetTokenCleanup.stop();
      await expiry.stop();
      await mailer.stop();
      transport.close();
      await database.close();
      log.info('bye');
      log.flush();
    } catch (error) {
      log.error({ err: error }, 'error while shutting down');
      process.exitCode = 1;
    }
  }
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // Through the log's own writer, behind every line logged so far: printed apart (console.log), the
  // banner came out before the batched lines of the seed and of "Server listening at" (issue 30).
  logDestination.write(banner(config, admin.generatedPassword, demoGiftCard));
  logDestination.flush();
}

/** A plain, human-readable summary for whoever started the shop (the logs above are JSON lines). */
function banner(
  config: Config,
  generatedPassword: string | undefined,
  demoGiftCard: string | undefined,
): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const email = config.adminEmail.toLowerCase();
  const adminLine = generatedPassword
    ? `${email} / ${generatedPassword}  (shown only this once: set ADMIN_PASSWORD to choose your own)`
    : config.adminPassword
      ? `${email} / the password in ADMIN_PASSWORD`
      : `${email} / the password printed on the first start (set ADMIN_PASSWORD to replace it)`;
  return (
    [
      '',
      `  Pixel Vault is running at http://${host}:${config.port}`,
      `  Admin login: ${adminLine}`,
      ...(demoGiftCard
        ? [
            `  Demo gift card: ${demoGiftCard} ($${(DEMO_GIFT_CARD_CENTS / 100).toFixed(2)}, shown only this once)`,
          ]
        : []),
      `  Data: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : config.dataDir}`,
      '',
    ].join('\n') + '\n'
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
