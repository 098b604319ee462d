import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { inject } from 'vitest';
import { type AppDeps, type RateLimits, buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { type Database, type DatabaseHandle, openDatabase } from '../db/client.js';
import type { App } from '../lib/http.js';
import { type Storage, createStorage } from '../lib/storage.js';
import type { MailTransport, OutgoingMail } from '../modules/mail/mail.transport.js';
import { type MailWorker, createMailWorker } from '../modules/mail/mail.worker.js';
import { scratchDatabase } from './global-setup.js';

/** Fixed so factories can sign tokens the app accepts. */
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export const silentLog = {
  info() {},
  warn() {},
};

/** Captures mails instead of sending them; `fail` makes the next sends throw. */
export function createMemoryTransport(): MailTransport & { sent: OutgoingMail[]; failNext: number } {
  const transport = {
    kind: 'memory' as const,
    sent: [] as OutgoingMail[],
    failNext: 0,
    async send(mail: OutgoingMail) {
      if (transport.failNext > 0) {
        transport.failNext -= 1;
        throw new Error('memory transport: refused');
      }
      transport.sent.push(mail);
    },
    close() {},
  };
  return transport;
}

const UNLIMITED = { max: 1_000_000, windowMs: 60_000 };
/** Every rate limit out of the way, for suites that test something else with many calls. */
export const NO_RATE_LIMITS: RateLimits = {
  login: UNLIMITED,
  loginAddress: UNLIMITED,
  register: UNLIMITED,
  forgotPassword: UNLIMITED,
  forgotPasswordAddress: UNLIMITED,
  resetPasswordAddress: UNLIMITED,
  contact: UNLIMITED,
  giftCardCodes: UNLIMITED,
  giftCardCodesAddress: UNLIMITED,
  reviews: UNLIMITED,
  discountCodes: UNLIMITED,
  discountCodesAddress: UNLIMITED,
  alertSubscribe: UNLIMITED,
  alertSubscribeAddress: UNLIMITED,
  alertTokensAddress: UNLIMITED,
  verifyResend: UNLIMITED,
  verifyResendAddress: UNLIMITED,
  verifyEmailAddress: UNLIMITED,
};

export interface TestContext {
  app: App;
  db: Database;
  config: Config;
  storage: Storage;
  /** Not started: call `mail.worker.drainOnce()` to send what is queued; sent mails land in `mail.sent`. */
  mail: { worker: MailWorker; sent: OutgoingMail[]; transport: ReturnType<typeof createMemoryTransport> };
  /** Another app on the same database (e.g. with other rate limits); closed with the context. */
  newApp(overrides?: Partial<Omit<AppDeps, 'db'>>): Promise<App>;
  close(): Promise<void>;
}

export interface TestContextOptions {
  /** Extra environment for loadConfig (DATA_DIR and JWT_SECRET are set for you). */
  env?: Record<string, string>;
  app?: Partial<Omit<AppDeps, 'db' | 'config'>>;
}

async function openTestDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = inject('pgTemplateDatabase');
  if (adminUrl && template) {
    const { url, drop } = await scratchDatabase(adminUrl, 'pv_test', template);
    const handle = await openDatabase({ databaseUrl: url, dataDir: tmpdir(), poolMax: 4 });
    return { handle, drop };
  }
  const dump = readFileSync(inject('pgliteDumpFile'));
  const handle = await openDatabase({
    dataDir: tmpdir(),
    inMemory: true,
    pgliteLoadDataDir: new Blob([dump]),
  });
  return { handle, drop: async () => {} };
}

/**
 * A fresh, migrated database (PGlite from the global dump, or a PostgreSQL copy of the template
 * when TEST_DATABASE_URL is set) with the app built on it. Call `close()` in afterAll.
 */
export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pv-ctx-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'web-dist'),
    ...options.env,
  });
  const { handle, drop } = await openTestDatabase();
  // Local disk in the context's DATA_DIR, or the bucket of env.STORAGE_URL (issue 13).
  const storage = options.app?.storage ?? (await createStorage(config));
  const transport = createMemoryTransport();
  const logger = pino({ level: 'silent' });
  const worker = createMailWorker({ db: handle.db, transport, log: logger });

  const apps: App[] = [];
  const newApp = async (overrides: Partial<Omit<AppDeps, 'db'>> = {}) => {
    const app = await buildApp({
      config,
      db: handle.db,
      storage,
      mailer: worker,
      logger,
      listen: handle.listen,
      ...options.app,
      ...overrides,
    });
    apps.push(app);
    return app;
  };
  const app = await newApp();

  return {
    app,
    db: handle.db,
    config,
    storage,
    mail: { worker, sent: transport.sent, transport },
    newApp,
    async close() {
      for (const a of apps) await a.close();
      await worker.stop();
      await handle.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
