import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, trustProxyWarning } from './config.js';

describe('loadConfig', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pv-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const SECRET = 'x'.repeat(32);

  it('applies the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: dir,
      databaseUrl: undefined,
      adminEmail: 'admin@pixelvault.local',
      adminPassword: undefined,
      smtpUrl: undefined,
      mailFrom: 'Pixel Vault <no-reply@pixelvault.local>',
      contactTo: 'admin@pixelvault.local',
      logLevel: 'info',
      trustProxy: false,
      uploadsDir: path.join(dir, 'uploads'),
      mailDir: path.join(dir, 'mail'),
      pgliteDir: path.join(dir, 'db'),
    });
    expect(config.webDistDir).toMatch(/apps[/\\]web[/\\]dist$/);
  });

  it('resolves a relative DATA_DIR to an absolute path', () => {
    const config = loadConfig({ DATA_DIR: 'some/data', JWT_SECRET: SECRET, INIT_CWD: dir });
    expect(config.dataDir).toBe(path.join(dir, 'some/data'));
  });

  it('reads every variable it knows', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: 'postgres://u:p@db:5432/shop',
      JWT_SECRET: SECRET,
      ADMIN_EMAIL: 'Boss@Shop.Example',
      ADMIN_PASSWORD: 'long enough',
      SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
      MAIL_FROM: 'Shop <shop@example.com>',
      CONTACT_TO: 'help@example.com',
      LOG_LEVEL: 'WARN',
      WEB_DIST_DIR: '/srv/web',
      TRUST_PROXY: '1',
      HOLD_MAX_ORDERS: '5',
      HOLD_MAX_UNITS: '12',
      HOLD_MAX_VALUE: '250.50',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u:p@db:5432/shop',
      jwtSecret: SECRET,
      adminEmail: 'boss@shop.example',
      adminPassword: 'long enough',
      smtpUrl: 'smtps://user:pass@smtp.example.com:465',
      mailFrom: 'Shop <shop@example.com>',
      contactTo: 'help@example.com',
      logLevel: 'warn',
      webDistDir: '/srv/web',
      trustProxy: 1,
      holdLimits: { maxOrders: 5, maxUnits: 12, maxValueCents: 25_050 },
    });
  });

  it('sends contact mail to the admin unless CONTACT_TO says otherwise', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, ADMIN_EMAIL: 'a@b.co' }).contactTo).toBe('a@b.co');
  });

  it('treats empty variables as unset', () => {
    const config = loadConfig({
      DATA_DIR: dir,
      JWT_SECRET: SECRET,
      PORT: '',
      DATABASE_URL: ' ',
      SMTP_URL: '',
    });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
  });

  it('accepts a hop count or an address list for TRUST_PROXY', () => {
    const trustOf = (value: string) =>
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, TRUST_PROXY: value }).trustProxy;
    expect(trustOf('2')).toBe(2);
    expect(trustOf('0')).toBe(false);
    expect(trustOf('false')).toBe(false);
    expect(trustOf('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(trustOf('Loopback, fd00::/8')).toEqual(['loopback', 'fd00::/8']);
  });

  it('refuses TRUST_PROXY=true, which would believe any client-written X-Forwarded-For (issue 9)', () => {
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: "true" would believe whatever a client writes in X-Forwarded-For: set the number of proxies/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, TRUST_PROXY: '50' })).toThrow(
      /hop count above 10/,
    );
  });

  it('warns at start about a TRUST_PROXY hop count on a port clients can reach without the proxy (issue 28)', () => {
    const warningFor = (env: Record<string, string>) =>
      trustProxyWarning(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, ...env }));
    const warning = warningFor({ TRUST_PROXY: '1' });
    // The risk, and the address-list alternative.
    expect(warning).toMatch(
      /^TRUST_PROXY=1 believes the last X-Forwarded-For entry of whoever connects, and HOST=0\.0\.0\.0 /,
    );
    expect(warning).toContain('skip every per-address limit');
    expect(warning).toContain(
      "List the proxies' addresses in TRUST_PROXY instead (e.g. TRUST_PROXY=10.0.0.2",
    );
    expect(warningFor({ TRUST_PROXY: '2', HOST: '192.0.2.10' })).toMatch(
      /^TRUST_PROXY=2 believes the last X-Forwarded-For 2 entries of whoever connects, and HOST=192\.0\.2\.10 /,
    );
    expect(warningFor({ TRUST_PROXY: '1', HOST: '::' })).toBeDefined();
    // Reachable from this machine only, an address list, or no proxy: nothing to warn about.
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) {
      expect(warningFor({ TRUST_PROXY: '1', HOST: host })).toBeUndefined();
    }
    expect(warningFor({ TRUST_PROXY: '10.0.0.2, loopback' })).toBeUndefined();
    expect(warningFor({ TRUST_PROXY: '0' })).toBeUndefined();
    expect(warningFor({})).toBeUndefined();
  });

  it('defaults the hold limits to 3 orders, 50 units and $5000 per customer', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).holdLimits).toEqual({
      maxOrders: 3,
      maxUnits: 50,
      maxValueCents: 500_000,
    });
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, HOLD_MAX_ORDERS: '0' })).toThrow(
      /HOLD_MAX_ORDERS: must be a positive whole number/,
    );
  });

  it('generates a JWT secret once, keeps it in DATA_DIR/jwt-secret readable by the owner only, and reuses it', () => {
    const first = loadConfig({ DATA_DIR: dir });
    const file = path.join(dir, 'jwt-secret');
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first.jwtSecret);
  });

  it('names every bad variable and why in one ConfigError', () => {
    let error: unknown;
    try {
      loadConfig({
        DATA_DIR: dir,
        PORT: 'eighty',
        JWT_SECRET: 'short',
        ADMIN_PASSWORD: 'short',
        ADMIN_EMAIL: 'not-an-email',
        DATABASE_URL: 'mysql://db/shop',
        SMTP_URL: 'http://mail',
        REDIS_URL: 'localhost:6379',
        LOG_LEVEL: 'loud',
        TRUST_PROXY: 'maybe?',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('PORT: must be a number');
    expect(message).toContain('JWT_SECRET: must be at least 32 characters');
    expect(message).toContain('ADMIN_PASSWORD: must be at least 8 characters');
    expect(message).toContain('ADMIN_EMAIL: must be an e-mail address');
    expect(message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    expect(message).toContain('SMTP_URL: must be an smtp:// or smtps:// URL');
    expect(message).toContain('REDIS_URL: must be a redis:// or rediss:// URL');
    expect(message).toContain('LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent');
    expect(message).toContain('TRUST_PROXY: "maybe?" is not an address: use a hop count');
  });

  it('counts the rate limits in the database unless REDIS_URL names a Redis', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).redisUrl).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, REDIS_URL: '' }).redisUrl).toBeUndefined();
    expect(
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, REDIS_URL: ' rediss://:pw@cache.internal:6380/2 ' })
        .redisUrl,
    ).toBe('rediss://:pw@cache.internal:6380/2');
  });

  it('opens as many PostgreSQL connections as DATABASE_POOL_SIZE says, 10 when unset', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).databasePoolSize).toBe(10);
    expect(
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, DATABASE_POOL_SIZE: ' 12 ' }).databasePoolSize,
    ).toBe(12);
    for (const [value, message] of [
      ['0', 'DATABASE_POOL_SIZE: must be a positive whole number'],
      ['2.5', 'DATABASE_POOL_SIZE: must be a whole number'],
      ['many', 'DATABASE_POOL_SIZE: must be a number'],
      ['5000', 'DATABASE_POOL_SIZE: must be at most 1000'],
    ]) {
      expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, DATABASE_POOL_SIZE: value })).toThrow(
        message,
      );
    }
  });

  it('refuses a port out of range', () => {
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, PORT: '70000' })).toThrow(
      /PORT: must be between 0 and 65535/,
    );
  });
  it('holds unpaid orders 30 minutes unless ORDER_HOLD_MINUTES says otherwise', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).orderHoldMinutes).toBe(30);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, ORDER_HOLD_MINUTES: '5' }).orderHoldMinutes).toBe(
      5,
    );
    for (const bad of ['0', '-3', '1.5', 'soon']) {
      expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, ORDER_HOLD_MINUTES: bad })).toThrow(
        /ORDER_HOLD_MINUTES: must be/,
      );
    }
  });

  it('counts the shop days in UTC unless SHOP_TIMEZONE names an IANA zone (issue 15)', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).shopTimeZone).toBe('UTC');
    expect(
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, SHOP_TIMEZONE: ' Asia/Tokyo ' }).shopTimeZone,
    ).toBe('Asia/Tokyo');
    expect(
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, SHOP_TIMEZONE: 'europe/paris' }).shopTimeZone,
    ).toBe('Europe/Paris');
    for (const bad of ['Mars/Olympus', '+01:00', 'UTC+1; drop table', 'Tokyo']) {
      expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, SHOP_TIMEZONE: bad }), bad).toThrow(
        /SHOP_TIMEZONE: must be an IANA time zone/,
      );
    }
  });

  it("takes the shop's country from SHOP_COUNTRY, an ISO 3166-1 alpha-2 code, US unless set (issue 30)", () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).shopCountry).toBe('US');
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, SHOP_COUNTRY: '' }).shopCountry).toBe('US');
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, SHOP_COUNTRY: ' de ' }).shopCountry).toBe('DE');
    for (const bad of ['USA', 'Germany', 'XX', 'UK', 'D']) {
      expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, SHOP_COUNTRY: bad }), bad).toThrow(
        /SHOP_COUNTRY: must be an ISO 3166-1 alpha-2 country code/,
      );
    }
  });

  it('calls stock of 3 or less low unless LOW_STOCK_THRESHOLD says otherwise (issue 15)', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).lowStockThreshold).toBe(3);
    expect(
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, LOW_STOCK_THRESHOLD: '0' }).lowStockThreshold,
    ).toBe(0);
    expect(
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, LOW_STOCK_THRESHOLD: '1000000' }).lowStockThreshold,
    ).toBe(1_000_000);
    for (const bad of ['-1', '2.5', 'few', '1000001']) {
      expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, LOW_STOCK_THRESHOLD: bad }), bad).toThrow(
        /LOW_STOCK_THRESHOLD: must be/,
      );
    }
  });

  it('reconciles payments every 60 seconds unless RECONCILE_INTERVAL_SECONDS says otherwise, at most an hour', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).reconcileIntervalMs).toBe(60_000);
    expect(
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, RECONCILE_INTERVAL_SECONDS: '2' }).reconcileIntervalMs,
    ).toBe(2000);
    for (const bad of ['0', '1.5', '3601', 'often']) {
      expect(() =>
        loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, RECONCILE_INTERVAL_SECONDS: bad }),
      ).toThrow(/RECONCILE_INTERVAL_SECONDS: must be/);
    }
  });

  it('keeps password reset links 30 minutes unless RESET_TOKEN_MINUTES says otherwise, at most a day', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).resetTokenMinutes).toBe(30);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, RESET_TOKEN_MINUTES: '' }).resetTokenMinutes).toBe(
      30,
    );
    expect(
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, RESET_TOKEN_MINUTES: '1440' }).resetTokenMinutes,
    ).toBe(1440);
    for (const bad of ['0', '-3', '1.5', 'soon', '1441']) {
      expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, RESET_TOKEN_MINUTES: bad })).toThrow(
        /RESET_TOKEN_MINUTES: must be/,
      );
    }
  });

  it('accepts product images up to 5 MB unless UPLOAD_MAX_MB says otherwise', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).uploadMaxMb).toBe(5);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, UPLOAD_MAX_MB: '0.5' }).uploadMaxMb).toBe(0.5);
    for (const bad of ['0', '-1', 'big', '1000']) {
      expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, UPLOAD_MAX_MB: bad })).toThrow(
        /UPLOAD_MAX_MB: must be/,
      );
    }
  });

  it('allows no other origin unless CORS_ORIGINS lists some', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).corsOrigins).toEqual([]);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, CORS_ORIGINS: '' }).corsOrigins).toEqual([]);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, CORS_ORIGINS: ' , ' }).corsOrigins).toEqual([]);
  });

  it('reads CORS_ORIGINS as a comma-separated list of origins, de-duplicated, a trailing slash tolerated', () => {
    expect(
      loadConfig({
        DATA_DIR: dir,
        JWT_SECRET: SECRET,
        CORS_ORIGINS:
          ' https://app.example.com, http://localhost:5173/,https://app.example.com/ , http://127.0.0.1:8080',
      }).corsOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173', 'http://127.0.0.1:8080']);
  });

  it('refuses * and anything that is not an http(s) origin in CORS_ORIGINS, naming the variable', () => {
    for (const bad of [
      '*',
      'https://a.example, *',
      'https://a.example/path',
      'https://a.example/?x=1',
      'ftp://x',
      'app.example.com',
      'https://user@a.example',
      'https://a.example:99999',
    ]) {
      let error: unknown;
      try {
        loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, CORS_ORIGINS: bad });
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message, bad).toContain('CORS_ORIGINS: ');
    }
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, CORS_ORIGINS: '*' })).toThrow(
      /CORS_ORIGINS: "\*" is not allowed/,
    );
    expect(() =>
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, CORS_ORIGINS: 'https://a.example/path' }),
    ).toThrow(/CORS_ORIGINS: "https:\/\/a\.example\/path" is not an origin/);
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, CORS_ORIGINS: 'ftp://x' })).toThrow(
      /CORS_ORIGINS: "ftp:\/\/x" is not an origin/,
    );
  });

  it('answers relative image URLs unless PUBLIC_URL is set, and drops its trailing slashes', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).publicUrl).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, PUBLIC_URL: ' ' }).publicUrl).toBeUndefined();
    expect(
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, PUBLIC_URL: 'https://shop.example.com' }).publicUrl,
    ).toBe('https://shop.example.com');
    expect(
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, PUBLIC_URL: 'http://127.0.0.1:3210/' }).publicUrl,
    ).toBe('http://127.0.0.1:3210');
    expect(
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, PUBLIC_URL: 'https://example.com/shop//' }).publicUrl,
    ).toBe('https://example.com/shop');
  });

  it('refuses a PUBLIC_URL with a query or fragment, or that is not an http(s) URL', () => {
    for (const bad of [
      'https://shop.example.com/?x=1',
      'https://shop.example.com/#top',
      'shop.example.com',
      'not a url',
      'ftp://shop.example.com',
      '/relative/path',
      'https://',
    ]) {
      expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, PUBLIC_URL: bad }), bad).toThrow(
        /PUBLIC_URL: must be an http\(s\):\/\/ URL without query or fragment/,
      );
    }
  });

  it('runs demo payments without PayPal credentials, PayPal with both, and refuses only one', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).paypal).toBeUndefined();
    expect(
      loadConfig({
        DATA_DIR: dir,
        JWT_SECRET: SECRET,
        PAYPAL_CLIENT_ID: 'id',
        PAYPAL_CLIENT_SECRET: 'secret',
      }).paypal,
    ).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      apiBase: 'https://api-m.sandbox.paypal.com',
      webhookId: undefined,
    });
    expect(
      loadConfig({
        DATA_DIR: dir,
        JWT_SECRET: SECRET,
        PAYPAL_CLIENT_ID: 'id',
        PAYPAL_CLIENT_SECRET: 'secret',
        PAYPAL_API_BASE: 'https://api-m.paypal.com/',
        PAYPAL_WEBHOOK_ID: 'WH-1',
      }).paypal,
    ).toMatchObject({ apiBase: 'https://api-m.paypal.com', webhookId: 'WH-1' });
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, PAYPAL_CLIENT_ID: 'id' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, PAYPAL_CLIENT_SECRET: 's' })).toThrow(
      /PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET: set both/,
    );
    expect(() =>
      loadConfig({
        DATA_DIR: dir,
        JWT_SECRET: SECRET,
        PAYPAL_CLIENT_ID: 'id',
        PAYPAL_CLIENT_SECRET: 's',
        PAYPAL_API_BASE: 'ftp://x',
      }),
    ).toThrow(/PAYPAL_API_BASE: must be an http/);
  });
});

describe('loadConfig: object storage (issue 13)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pv-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const load = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(32), ...env });

  it('keeps images on local disk when STORAGE_URL is unset or empty', () => {
    expect(load({}).s3).toBeUndefined();
    expect(load({ STORAGE_URL: '  ' }).s3).toBeUndefined();
  });

  it('reads bucket, prefix, endpoint, region and path style from STORAGE_URL', () => {
    expect(
      load({
        STORAGE_URL:
          's3://pixel-vault/images/shop/?endpoint=http://127.0.0.1:4569/&region=eu-west-3&forcePathStyle=true',
      }).s3,
    ).toEqual({
      bucket: 'pixel-vault',
      prefix: 'images/shop',
      endpoint: 'http://127.0.0.1:4569',
      region: 'eu-west-3',
      forcePathStyle: true,
      publicUrl: undefined,
    });
  });

  it('defaults to the bucket root, AWS’s endpoint, AWS_REGION or us-east-1, and virtual-hosted style', () => {
    expect(load({ STORAGE_URL: 's3://my.bucket-1' }).s3).toEqual({
      bucket: 'my.bucket-1',
      prefix: '',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      publicUrl: undefined,
    });
    expect(load({ STORAGE_URL: 's3://shop-images', AWS_REGION: 'ap-south-1' }).s3?.region).toBe('ap-south-1');
    expect(load({ STORAGE_URL: 's3://shop-images?region=auto', AWS_REGION: 'ap-south-1' }).s3?.region).toBe(
      'auto',
    );
    expect(load({ STORAGE_URL: 's3://shop-images?forcePathStyle=0' }).s3?.forcePathStyle).toBe(false);
  });

  it('links images under STORAGE_PUBLIC_URL, its trailing slashes dropped', () => {
    expect(
      load({ STORAGE_URL: 's3://shop-images', STORAGE_PUBLIC_URL: 'https://cdn.example.com/media//' }).s3
        ?.publicUrl,
    ).toBe('https://cdn.example.com/media');
  });

  it('refuses a STORAGE_URL that is not a usable s3:// URL, saying why', () => {
    const cases: [string, RegExp][] = [
      ['https://bucket.s3.amazonaws.com', /STORAGE_URL: must be an s3:\/\/ URL/],
      ['bucket-name', /STORAGE_URL: must be an s3:\/\/ URL/],
      ['s3://', /STORAGE_URL: "" is not a bucket name/],
      ['s3://My_Bucket', /STORAGE_URL: "My_Bucket" is not a bucket name/],
      ['s3://ab', /STORAGE_URL: "ab" is not a bucket name/],
      ['s3://key:secret@bucket', /STORAGE_URL: put credentials in AWS_ACCESS_KEY_ID/],
      ['s3://bucket:9000', /STORAGE_URL: a port belongs to the endpoint parameter/],
      ['s3://bucket/../up', /STORAGE_URL: "\.\.\/up" is not a key prefix/],
      ['s3://bucket/a/%2e%2e/b', /STORAGE_URL: "a\/\.\.\/b" is not a key prefix/],
      ['s3://bucket/a b', /STORAGE_URL: "a b" is not a key prefix/],
      ['s3://bucket/.hidden', /STORAGE_URL: ".hidden" is not a key prefix/],
      [
        's3://bucket?endpoint=127.0.0.1:9000',
        /STORAGE_URL: endpoint "127.0.0.1:9000" must be an http\(s\):\/\/ URL/,
      ],
      ['s3://bucket?endpoint=ftp://x', /STORAGE_URL: endpoint "ftp:\/\/x" must be/],
      ['s3://bucket?region=us east', /STORAGE_URL: region "us east" is not a region name/],
      ['s3://bucket?forcePathStyle=yes', /STORAGE_URL: forcePathStyle must be true or false, not "yes"/],
      ['s3://bucket?forcepathstyle=true', /STORAGE_URL: unknown parameter "forcepathstyle"/],
      ['s3://bucket#frag', /STORAGE_URL: must not have a #fragment/],
    ];
    for (const [bad, message] of cases) {
      expect(() => load({ STORAGE_URL: bad }), bad).toThrow(message);
    }
    expect(() => load({ STORAGE_URL: 's3://bucket', AWS_REGION: 'bad region' })).toThrow(
      /STORAGE_URL: region "bad region" is not a region name/,
    );
  });

  it('refuses a bad STORAGE_PUBLIC_URL, and one without STORAGE_URL', () => {
    for (const bad of [
      'cdn.example.com',
      'ftp://cdn.example.com',
      'https://cdn.example.com/?v=1',
      'https://cdn.example.com/#x',
    ]) {
      expect(() => load({ STORAGE_URL: 's3://shop-images', STORAGE_PUBLIC_URL: bad }), bad).toThrow(
        /STORAGE_PUBLIC_URL: must be an http\(s\):\/\/ URL without query or fragment/,
      );
    }
    expect(() => load({ STORAGE_PUBLIC_URL: 'https://cdn.example.com' })).toThrow(
      /STORAGE_PUBLIC_URL: only used with STORAGE_URL/,
    );
  });

  it('names a bad STORAGE_URL beside the other bad variables in one ConfigError', () => {
    let error: unknown;
    try {
      load({ STORAGE_URL: 's3://B', PORT: 'x' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/PORT: must be a number/);
    expect((error as Error).message).toMatch(/STORAGE_URL: "B" is not a bucket name/);
  });
});
