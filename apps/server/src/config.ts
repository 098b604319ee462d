import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  DEFAULT_SHOP_COUNTRY,
  DEFAULT_TRADE_IN_QUOTE_DAYS,
  RESET_TOKEN_MINUTES_DEFAULT,
  isCountryCode,
} from '@pixel-vault/shared';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Which proxies' X-Forwarded-For to believe: none (false), a hop count (the proxies in front of the
 * shop, counted from the right), or a list of proxy addresses/CIDRs. Never "all": that trusts what a
 * client writes (issue 9).
 */
export type TrustProxy = false | number | string[];

export interface Config {
  port: number;
  host: string;
  /** Absolute. Holds the embedded database, uploads, mail files and the generated JWT secret. */
  dataDir: string;
  /** Unset = embedded PGlite in `dataDir/db`. */
  databaseUrl: string | undefined;
  /**
   * DATABASE_POOL_SIZE: PostgreSQL connections this instance opens at most (default 10, see
   * DEFAULT_POOL_SIZE). Unused on PGlite, which runs one statement at a time.
   */
  databasePoolSize: number;
  /** REDIS_URL: the rate limits are counted there instead of in the database (issue 13). */
  redisUrl: string | undefined;
  jwtSecret: string;
  /** REQUIRE_ADMIN_2FA (issue 36, default false): admin routes refuse an admin without two-factor sign-in. */
  requireAdminTwoFactor: boolean;
  /** METRICS_TOKEN (issue 37): the bearer token GET /metrics asks for; unset = no /metrics (404). */
  metricsToken: string | undefined;
  /**
   * WEBHOOKS_ALLOW_LOCAL (issue 37, default false): webhook endpoints may be http://127.0.0.1 or
   * localhost, and hosts that resolve to private, loopback or link-local addresses (for testing only).
   */
  webhooksAllowLocal: boolean;
  adminEmail: string;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  contactTo: string;
  logLevel: LogLevel;
  webDistDir: string;
  trustProxy: TrustProxy;
  /** Other origins whose pages may call the API (CORS_ORIGINS); empty = same origin only. */
  corsOrigins: string[];
  /** Where the shop is reached from outside, without a trailing slash (PUBLIC_URL); unset = relative URLs. */
  publicUrl: string | undefined;
  uploadsDir: string;
  mailDir: string;
  pgliteDir: string;
  /** Largest accepted product image, per file, in megabytes (UPLOAD_MAX_MB, default 5). */
  uploadMaxMb: number;
  /** Unpaid orders hold their stock and gift-card money this long (ORDER_HOLD_MINUTES). */
  orderHoldMinutes: number;
  /** A password reset link works this long after it was asked for (RESET_TOKEN_MINUTES, issue 11). */
  resetTokenMinutes: number;
  /** A trade-in quote holds this many days unless shipped (TRADEIN_QUOTE_DAYS, default 7; issue 35). */
  tradeInQuoteDays: number;
  /** How often the payment reconciler looks for unfinished payments (RECONCILE_INTERVAL_SECONDS, default 60). */
  reconcileIntervalMs: number;
  /** What one customer's unpaid orders may hold together (issue 9): HOLD_MAX_ORDERS/UNITS/VALUE. */
  holdLimits: HoldLimits;
  /** Unset (no PAYPAL_CLIENT_ID / PAYPAL_CLIENT_SECRET) = demo payments, no money moves. */
  paypal: PayPalConfig | undefined;
  /** STORAGE_URL (+ STORAGE_PUBLIC_URL): product images in an S3-compatible bucket; unset = `uploadsDir`. */
  s3: S3Config | undefined;
  /** The IANA time zone the shop's days are counted in (SHOP_TIMEZONE, default UTC; issue 15). */
  shopTimeZone: string;
  /** The shop's own country, ISO 3166-1 alpha-2 (SHOP_COUNTRY, default US): listed first at checkout (issue 30). */
  shopCountry: string;
  /** Stock at or below this is low: listed on the overview, mailed once per crossing (LOW_STOCK_THRESHOLD, default 3). */
  lowStockThreshold: number;
  /** The pg_dump behind GET /api/admin/backup on PostgreSQL (PG_DUMP_PATH; unset = `pg_dump` on PATH; issue 15). */
  pgDumpPath: string;
  /** The pg_restore of `npm run db:restore` on PostgreSQL (PG_RESTORE_PATH; unset = `pg_restore` on PATH). */
  pgRestorePath: string;
}

export interface HoldLimits {
  /** Unpaid orders open at once, per customer (default 3). */
  maxOrders: number;
  /** Units held by them together, the new order included (default 50). */
  maxUnits: number;
  /** Their totals together, in cents (HOLD_MAX_VALUE is in dollars, default 5000). */
  maxValueCents: number;
}

export const DEFAULT_HOLD_LIMITS: HoldLimits = { maxOrders: 3, maxUnits: 50, maxValueCents: 500_000 };

export interface PayPalConfig {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  /** Needed to verify webhook signatures; without it the webhook refuses every event. */
  webhookId: string | undefined;
}

/**
 * Where product images go when several instances must share them (issue 13). Credentials are not
 * here: the AWS SDK reads them itself (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, a role).
 */
export interface S3Config {
  bucket: string;
  /** Prepended to every key, without slashes at either end; '' = the bucket's root. */
  prefix: string;
  /** An S3-compatible server (MinIO, s3rver, R2, ...); unset = AWS's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  /** `http://host/bucket/key` instead of `http://bucket.host/key` (MinIO, s3rver and most self-hosted). */
  forcePathStyle: boolean;
  /**
   * STORAGE_PUBLIC_URL, no trailing slash: images are linked as `<publicUrl>/<prefix>/<key>` (a CDN or
   * the bucket's public address). Unset = the shop streams them from the bucket at `/uploads/<key>`.
   */
  publicUrl: string | undefined;
}

export const DEFAULT_S3_REGION = 'us-east-1';

export const DEFAULT_PAYPAL_API_BASE = 'https://api-m.sandbox.paypal.com';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** apps/web/dist, the same from src/config.ts (tsx) and dist/config.js (node): both sit one level down. */
const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** `FOO=` in a compose file or .env means "not set", not "the empty string". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'must be an e-mail address' }));

/** 1..max, from the environment's text; the messages say which bound was broken. */
const positiveWholeNumber = (max: number, tooBig = `must be at most ${max}`) =>
  z.coerce
    .number({ message: 'must be a number' })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be a positive whole number' })
    .max(max, { message: tooBig });

/**
 * An IANA zone name (Europe/Paris, Asia/Tokyo, UTC), as both the server (Intl) and the database
 * (`at time zone`) read it. Bare offsets are refused: PostgreSQL reads `+01:00` as POSIX, west of
 * Greenwich, the opposite of ISO 8601.
 */
const timeZone = z
  .string()
  .trim()
  .transform((value, ctx) => {
    try {
      if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) throw new RangeError(value);
      return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an IANA time zone, e.g. UTC or Europe/Paris' });
      return z.NEVER;
    }
  });

/** An ISO 3166-1 alpha-2 code, in either case (`de` -> `DE`). */
const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine(isCountryCode, { message: 'must be an ISO 3166-1 alpha-2 country code, e.g. US or DE' });

const EnvSchema = z.object({
  PORT: optional(
    z.coerce
      .number({ message: 'must be a number' })
      .int({ message: 'must be a whole number' })
      .min(0, { message: 'must be between 0 and 65535' })
      .max(65535, { message: 'must be between 0 and 65535' }),
  ),
  HOST: optional(z.string().trim()),
  DATA_DIR: optional(z.string()),
  DATABASE_URL: optional(
    z
      .string()
      .trim()
      .refine((v) => /^postgres(ql)?:\/\/./.test(v), {
        message: 'must be a postgres:// or postgresql:// URL',
      }),
  ),
  DATABASE_POOL_SIZE: optional(positiveWholeNumber(1000)),
  REDIS_URL: optional(
    z
      .string()
      .trim()
      .refine((v) => /^rediss?:\/\/./.test(v), { message: 'must be a redis:// or rediss:// URL' }),
  ),
  REQUIRE_ADMIN_2FA: optional(
    z
      .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
      .transform((v) => v === 'true' || v === '1'),
  ),
  JWT_SECRET: optional(z.string().min(32, { message: 'must be at least 32 characters' })),
  METRICS_TOKEN: optional(
    z
      .string()
      .trim()
      .min(16, { message: 'must be at least 16 characters' })
      .max(256, { message: 'must be at most 256 characters' })
      .regex(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces' }),
  ),
  WEBHOOKS_ALLOW_LOCAL: optional(
    z
      .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
      .transform((v) => v === 'true' || v === '1'),
  ),
  ADMIN_EMAIL: optional(email),
  ADMIN_PASSWORD: optional(
    z
      .string()
      .min(8, { message: 'must be at least 8 characters' })
      .max(128, { message: 'must be at most 128 characters' }),
  ),
  SMTP_URL: optional(
    z
      .string()
      .trim()
      .refine((v) => /^smtps?:\/\/./.test(v) && URL.canParse(v), {
        message: 'must be an smtp:// or smtps:// URL',
      }),
  ),
  MAIL_FROM: optional(z.string().trim()),
  CONTACT_TO: optional(email),
  LOG_LEVEL: optional(
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })),
  ),
  WEB_DIST_DIR: optional(z.string()),
  TRUST_PROXY: optional(z.string().trim()),
  ORDER_HOLD_MINUTES: optional(positiveWholeNumber(7 * 24 * 60, 'must be at most 10080 (a week)')),
  // A reset link is a key to the account: it may live a day at most.
  RESET_TOKEN_MINUTES: optional(positiveWholeNumber(24 * 60, 'must be at most 1440 (a day)')),
  TRADEIN_QUOTE_DAYS: optional(positiveWholeNumber(90, 'must be at most 90 (days)')),
  // A payment the server died in the middle of is settled within about this long (issue 9, issue 13).
  RECONCILE_INTERVAL_SECONDS: optional(positiveWholeNumber(3600, 'must be at most 3600 (an hour)')),
  HOLD_MAX_ORDERS: optional(positiveWholeNumber(1000)),
  HOLD_MAX_UNITS: optional(positiveWholeNumber(1_000_000)),
  HOLD_MAX_VALUE: optional(
    z.coerce
      .number({ message: 'must be a number' })
      .positive({ message: 'must be a positive amount in dollars' })
      .max(10_000_000, { message: 'must be at most 10000000' }),
  ),
  UPLOAD_MAX_MB: optional(
    z.coerce
      .number({ message: 'must be a number' })
      .positive({ message: 'must be a positive number' })
      .max(100, { message: 'must be at most 100' }),
  ),
  PAYPAL_CLIENT_ID: optional(z.string().trim()),
  PAYPAL_CLIENT_SECRET: optional(z.string().trim()),
  PAYPAL_API_BASE: optional(
    z
      .string()
      .trim()
      .refine((v) => /^https?:\/\/./.test(v) && URL.canParse(v), { message: 'must be an http(s):// URL' }),
  ),
  PAYPAL_WEBHOOK_ID: optional(z.string().trim()),
  CORS_ORIGINS: optional(z.string().trim()),
  PUBLIC_URL: optional(
    z
      .string()
      .trim()
      .refine((v) => /^https?:\/\/[^/?#]/.test(v) && URL.canParse(v) && !/[?#]/.test(v), {
        message: 'must be an http(s):// URL without query or fragment, e.g. https://shop.example.com',
      })
      .transform((v) => v.replace(/\/+$/, '')),
  ),
  STORAGE_URL: optional(z.string().trim()),
  STORAGE_PUBLIC_URL: optional(
    z
      .string()
      .trim()
      .refine((v) => /^https?:\/\/[^/?#]/.test(v) && URL.canParse(v) && !/[?#]/.test(v), {
        message: 'must be an http(s):// URL without query or fragment, e.g. https://cdn.example.com/images',
      })
      .transform((v) => v.replace(/\/+$/, '')),
  ),
  AWS_REGION: optional(z.string().trim()),
  SHOP_TIMEZONE: optional(timeZone),
  SHOP_COUNTRY: optional(countryCode),
  PG_DUMP_PATH: optional(z.string().trim()),
  PG_RESTORE_PATH: optional(z.string().trim()),
  LOW_STOCK_THRESHOLD: optional(
    z.coerce
      .number({ message: 'must be a number' })
      .int({ message: 'must be a whole number' })
      .min(0, { message: 'must be 0 or more' })
      .max(1_000_000, { message: 'must be at most 1000000' }),
  ),
});

const PROXY_ADDRESS = /^[0-9a-fA-F.:]+(\/\d{1,3})?$/;
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function parseTrustProxy(value: string | undefined): TrustProxy | Error {
  if (value === undefined) return false;
  const lower = value.toLowerCase();
  if (lower === 'true') {
    return new Error(
      '"true" would believe whatever a client writes in X-Forwarded-For: set the number of proxies in front of the shop (e.g. 1) or their addresses (e.g. 10.0.0.2 or 10.0.0.0/8)',
    );
  }
  if (lower === 'false') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) return new Error('a hop count above 10 is not a real proxy chain');
    return hops === 0 ? false : hops;
  }
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.find((s) => !PROXY_ADDRESS.test(s) && !PROXY_NAMES.has(s.toLowerCase()));
  if (list.length === 0 || bad !== undefined) {
    return new Error(
      `${bad ? `"${bad}" is not an address: ` : ''}use a hop count (e.g. 1) or a comma-separated list of proxy addresses/CIDRs (e.g. 10.0.0.2, 10.0.0.0/8, loopback)`,
    );
  }
  return list.map((s) => (PROXY_NAMES.has(s.toLowerCase()) ? s.toLowerCase() : s));
}

/** `HOST` values that only this machine can connect to. */
const isLoopbackHost = (host: string) =>
  host === 'localhost' ||
  host === '::1' ||
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
  host === '::ffff:127.0.0.1';

/**
 * The warning the shop logs at start when TRUST_PROXY is a hop count and it listens beyond this
 * machine (issue 28): a hop count believes the last X-Forwarded-For entries of whoever connects, so a
 * client that reaches the port without the proxy writes its own address and skips every per-address
 * limit. Undefined when there is nothing to warn about.
 */
export function trustProxyWarning({
  trustProxy,
  host,
}: Pick<Config, 'trustProxy' | 'host'>): string | undefined {
  if (typeof trustProxy !== 'number' || isLoopbackHost(host)) return undefined;
  const entries = trustProxy === 1 ? 'entry' : `${trustProxy} entries`;
  return (
    `TRUST_PROXY=${trustProxy} believes the last X-Forwarded-For ${entries} of whoever connects, ` +
    `and HOST=${host} lets clients reach the shop's port without the proxy: a client that does can ` +
    'write any address there and skip every per-address limit (logins, ' +
    "gift-card codes, sign-ups, password resets, contact messages). List the proxies' addresses in " +
    'TRUST_PROXY instead (e.g. TRUST_PROXY=10.0.0.2 or TRUST_PROXY=loopback), or set HOST=127.0.0.1 ' +
    'when the proxy runs on this machine, or make sure only the proxy can reach the port.'
  );
}

/**
 * `https://a.example, http://localhost:5173` -> exact origins (scheme, host, port; no path). `*` is
 * refused: the API answers with bearer tokens, and a shop owner should name who may call it.
 */
function parseCorsOrigins(value: string | undefined): string[] | Error {
  if (value === undefined) return [];
  const origins: string[] = [];
  for (const item of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (item === '*') return new Error('"*" is not allowed: list each origin, e.g. https://app.example.com');
    const url = URL.canParse(item) ? new URL(item) : null;
    if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      // Scheme and host compare without case (browsers send them lower-case); nothing else may follow.
      url.origin.toLowerCase() !== item.replace(/\/$/, '').toLowerCase()
    ) {
      return new Error(`"${item}" is not an origin: use scheme://host[:port], e.g. https://app.example.com`);
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return origins;
}

/** S3's bucket naming rules (3-63 characters); stricter than some servers, accepted by all of them. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** Path segments as storage keys allow them (lib/storage.ts SAFE_KEY). */
const PREFIX_SEGMENT = /^[a-z0-9][a-z0-9._-]*$/i;
const REGION = /^[a-z0-9][a-z0-9_-]{0,63}$/i;
const S3_PARAMETERS = ['endpoint', 'region', 'forcePathStyle'];

/** A malformed %-escape is left as it is (and then refused by the name rules), never thrown. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `s3://bucket[/prefix]?endpoint=http://127.0.0.1:4569&region=us-east-1&forcePathStyle=true`. Refuses
 * credentials in the URL (they belong to the AWS_* variables, out of logs and process lists) and
 * parameters it does not know, so a misspelt `forcepathstyle` is an error at start, not a mystery later.
 */
function parseStorageUrl(
  value: string | undefined,
  publicUrl: string | undefined,
  awsRegion: string | undefined,
): S3Config | undefined | Error {
  if (value === undefined) return undefined;
  const url = /^s3:\/\//i.test(value) && URL.canParse(value) ? new URL(value) : null;
  if (!url) {
    return new Error(
      'must be an s3:// URL, e.g. s3://my-bucket or s3://my-bucket/images?endpoint=http://127.0.0.1:9000&region=us-east-1&forcePathStyle=true',
    );
  }
  if (url.username || url.password) {
    return new Error('put credentials in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, not in the URL');
  }
  if (url.port) return new Error('a port belongs to the endpoint parameter, not the bucket');
  if (url.hash) return new Error('must not have a #fragment');
  const bucket = safeDecode(url.hostname);
  if (!BUCKET_NAME.test(bucket)) {
    return new Error(
      `"${bucket}" is not a bucket name: 3 to 63 lower-case letters, digits, dots or hyphens, starting and ending with a letter or digit`,
    );
  }
  // From the text as written: the URL parser would quietly resolve `a/../b` to `b`.
  const rawPath = /^s3:\/\/[^/?#]*([^?#]*)/i.exec(value)?.[1] ?? '';
  const prefix = safeDecode(rawPath).replace(/^\/+|\/+$/g, '');
  if (
    prefix !== '' &&
    (prefix.length > 100 || !prefix.split('/').every((part) => PREFIX_SEGMENT.test(part)))
  ) {
    return new Error(
      `"${prefix}" is not a key prefix: letters, digits, dots, hyphens and underscores, in segments separated by /`,
    );
  }
  const unknown = [...url.searchParams.keys()].find((name) => !S3_PARAMETERS.includes(name));
  if (unknown !== undefined) {
    return new Error(`unknown parameter "${unknown}": the URL takes ${S3_PARAMETERS.join(', ')}`);
  }
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (
    endpoint !== undefined &&
    !(/^https?:\/\/[^/?#]/.test(endpoint) && URL.canParse(endpoint) && !/[?#]/.test(endpoint))
  ) {
    return new Error(`endpoint "${endpoint}" must be an http(s):// URL, e.g. http://127.0.0.1:9000`);
  }
  const region = url.searchParams.get('region') ?? awsRegion ?? DEFAULT_S3_REGION;
  if (!REGION.test(region)) return new Error(`region "${region}" is not a region name, e.g. us-east-1`);
  const pathStyle = (url.searchParams.get('forcePathStyle') ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0'].includes(pathStyle)) {
    return new Error(`forcePathStyle must be true or false, not "${pathStyle}"`);
  }
  return {
    bucket,
    prefix,
    endpoint: endpoint?.replace(/\/+$/, ''),
    region,
    forcePathStyle: pathStyle === 'true' || pathStyle === '1',
    publicUrl,
  };
}

/**
 * PostgreSQL connections per instance when DATABASE_POOL_SIZE is unset. A smaller pool is no free
 * gain on a machine that also runs PostgreSQL: in a sale on 2 cores (bench/mixed.ts, issue 28), 5
 * connections instead of 10 kept browsing at 34-36% of its rate alone instead of 27-33%, and paid
 * orders at 43% instead of 51-53%, in two runs side by side; 3 and 4 moved further the same way.
 */
export const DEFAULT_POOL_SIZE = 10;

/**
 * The secret survives restarts (or every login would be lost) without anyone having to invent one:
 * generated once, kept beside the data it protects, readable by the owner only.
 */
function readOrCreateJwtSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/**
 * Every environment variable the server reads, parsed once. Throws a ConfigError naming each bad
 * variable, so a misconfigured deployment fails at start with one readable message.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(`${issue.path.join('.')}: ${issue.message}`);
    }
  }
  const trustProxy = parseTrustProxy(
    typeof env.TRUST_PROXY === 'string' && env.TRUST_PROXY.trim() !== '' ? env.TRUST_PROXY.trim() : undefined,
  );
  if (trustProxy instanceof Error) problems.push(`TRUST_PROXY: ${trustProxy.message}`);
  const corsOrigins = parseCorsOrigins(
    typeof env.CORS_ORIGINS === 'string' && env.CORS_ORIGINS.trim() !== '' ? env.CORS_ORIGINS : undefined,
  );
  if (corsOrigins instanceof Error) problems.push(`CORS_ORIGINS: ${corsOrigins.message}`);
  const s3 = parseStorageUrl(
    typeof env.STORAGE_URL === 'string' && env.STORAGE_URL.trim() !== '' ? env.STORAGE_URL.trim() : undefined,
    parsed.data?.STORAGE_PUBLIC_URL,
    parsed.data?.AWS_REGION,
  );
  if (s3 instanceof Error) problems.push(`STORAGE_URL: ${s3.message}`);
  if (parsed.success && parsed.data.STORAGE_PUBLIC_URL && !parsed.data.STORAGE_URL) {
    problems.push(
      'STORAGE_PUBLIC_URL: only used with STORAGE_URL (images on local disk are served by the shop)',
    );
  }
  if (parsed.success && Boolean(parsed.data.PAYPAL_CLIENT_ID) !== Boolean(parsed.data.PAYPAL_CLIENT_SECRET)) {
    problems.push(
      'PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET: set both for PayPal, or neither for demo payments',
    );
  }
  if (
    !parsed.success ||
    trustProxy instanceof Error ||
    corsOrigins instanceof Error ||
    s3 instanceof Error ||
    problems.length > 0
  ) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }

  const e = parsed.data;
  // npm sets INIT_CWD to where the command was typed, so `npm run db:reset` (which runs inside
  // apps/server) and `npm start` (at the root) find the same ./data.
  const base = env.INIT_CWD && env.INIT_CWD.trim() !== '' ? env.INIT_CWD : process.cwd();
  const dataDir = path.resolve(base, e.DATA_DIR ?? './data');
  const adminEmail = e.ADMIN_EMAIL ?? 'admin@pixelvault.local';

  return {
    port: e.PORT ?? 3000,
    host: e.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE ?? DEFAULT_POOL_SIZE,
    redisUrl: e.REDIS_URL,
    jwtSecret: e.JWT_SECRET ?? readOrCreateJwtSecret(dataDir),
    requireAdminTwoFactor: e.REQUIRE_ADMIN_2FA ?? false,
    metricsToken: e.METRICS_TOKEN,
    webhooksAllowLocal: e.WEBHOOKS_ALLOW_LOCAL ?? false,
    adminEmail,
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'Pixel Vault <no-reply@pixelvault.local>',
    contactTo: e.CONTACT_TO ?? adminEmail,
    logLevel: e.LOG_LEVEL ?? 'info',
    webDistDir: e.WEB_DIST_DIR ? path.resolve(base, e.WEB_DIST_DIR) : DEFAULT_WEB_DIST_DIR,
    trustProxy,
    corsOrigins,
    publicUrl: e.PUBLIC_URL,
    uploadsDir: path.join(dataDir, 'uploads'),
    mailDir: path.join(dataDir, 'mail'),
    pgliteDir: path.join(dataDir, 'db'),
    orderHoldMinutes: e.ORDER_HOLD_MINUTES ?? 30,
    resetTokenMinutes: e.RESET_TOKEN_MINUTES ?? RESET_TOKEN_MINUTES_DEFAULT,
    tradeInQuoteDays: e.TRADEIN_QUOTE_DAYS ?? DEFAULT_TRADE_IN_QUOTE_DAYS,
    reconcileIntervalMs: (e.RECONCILE_INTERVAL_SECONDS ?? 60) * 1000,
    holdLimits: {
      maxOrders: e.HOLD_MAX_ORDERS ?? DEFAULT_HOLD_LIMITS.maxOrders,
      maxUnits: e.HOLD_MAX_UNITS ?? DEFAULT_HOLD_LIMITS.maxUnits,
      maxValueCents:
        e.HOLD_MAX_VALUE !== undefined
          ? Math.round(e.HOLD_MAX_VALUE * 100)
          : DEFAULT_HOLD_LIMITS.maxValueCents,
    },
    uploadMaxMb: e.UPLOAD_MAX_MB ?? 5,
    paypal:
      e.PAYPAL_CLIENT_ID && e.PAYPAL_CLIENT_SECRET
        ? {
            clientId: e.PAYPAL_CLIENT_ID,
            clientSecret: e.PAYPAL_CLIENT_SECRET,
            apiBase: (e.PAYPAL_API_BASE ?? DEFAULT_PAYPAL_API_BASE).replace(/\/+$/, ''),
            webhookId: e.PAYPAL_WEBHOOK_ID,
          }
        : undefined,
    s3,
    shopTimeZone: e.SHOP_TIMEZONE ?? 'UTC',
    shopCountry: e.SHOP_COUNTRY ?? DEFAULT_SHOP_COUNTRY,
    lowStockThreshold: e.LOW_STOCK_THRESHOLD ?? 3,
    pgDumpPath: e.PG_DUMP_PATH ? path.resolve(base, e.PG_DUMP_PATH) : 'pg_dump',
    pgRestorePath: e.PG_RESTORE_PATH ? path.resolve(base, e.PG_RESTORE_PATH) : 'pg_restore',
  };
}
