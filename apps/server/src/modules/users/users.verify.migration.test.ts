import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrate, queryRows } from '../../db/client.js';
import { migrationScene } from '../../test/migrations.js';

/**
 * Migration 0027 (issue 36) on a shop that already has accounts: they have been receiving their mail
 * at their addresses, so each counts as verified since it was made; accounts made afterwards are not.
 */
describe('migration 0027: verified e-mail addresses', () => {
  const scene = migrationScene('0027');

  it('marks every existing account verified at its creation, and leaves new ones unverified', async () => {
    const { db } = scene.handle;
    expect(await migrate(db, scene.before)).toBe(27);
    await db.execute(sql`insert into users (name, email, password_hash, created_at)
      values ('Olga Old', 'olga@example.com', 'x', '2025-01-02T03:04:05Z')`);

    expect(await migrate(db, scene.through)).toBe(1);
    const [old] = await queryRows<{ email_verified_at: Date | string; created_at: Date | string }>(
      db,
      sql`select email_verified_at, created_at from users where email = 'olga@example.com'`,
    );
    expect(new Date(old!.email_verified_at).toISOString()).toBe('2025-01-02T03:04:05.000Z');
    await db.execute(
      sql`insert into users (name, email, password_hash) values ('Nina New', 'nina@example.com', 'x')`,
    );
    const [fresh] = await queryRows<{ email_verified_at: unknown }>(
      db,
      sql`select email_verified_at from users where email = 'nina@example.com'`,
    );
    expect(fresh!.email_verified_at).toBeNull();
  });
});
