import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Order, PublicUser } from '@pixel-vault/shared';
import { auditLog, users } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { DEFAULT_PASSWORD, insertProduct, insertUser, placeOrder } from '../../test/factories.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
});
afterAll(() => ctx.close());

type Auth = { authorization: string };

const get = (url: string, auth: Auth) => ctx.app.inject({ method: 'GET', url, headers: auth });
const put = (url: string, auth: Auth, payload: unknown) =>
  ctx.app.inject({ method: 'PUT', url, headers: auth, payload: payload as object });
const del = (url: string, auth: Auth) => ctx.app.inject({ method: 'DELETE', url, headers: auth });
const login = (email: string, password = DEFAULT_PASSWORD) =>
  ctx.app.inject({ method: 'POST', url: '/api/users/login', payload: { email, password } });

async function auditFor(targetId: string) {
  return ctx.db.select().from(auditLog).where(eq(auditLog.targetId, targetId));
}

describe('GET /api/users/admin/users', () => {
  it('searches name or e-mail case-insensitively, pages by 9 once asked to page, escapes LIKE wildcards', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const tag = randomUUID().slice(0, 8);
    for (let i = 0; i < 11; i += 1) await insertUser(ctx.db, { name: `Zed ${tag} ${i}` });
    await insertUser(ctx.db, { name: 'Someone', email: `MAIL-${tag}@Example.com` });
    await insertUser(ctx.db, { name: '100% Pure' });

    const first = await get(`/api/users/admin/users?q=${tag.toUpperCase()}&page=1`, admin.auth);
    expect(first.statusCode).toBe(200);
    const body = first.json<{ users: PublicUser[]; page: number; totalPage: number; total: number }>();
    expect(body.users).toHaveLength(9);
    expect(body.total).toBe(12);
    expect(body.totalPage).toBe(2);
    expect(JSON.stringify(body)).not.toMatch(/password|tokenVersion/i);

    const second = await get(`/api/users/admin/users?q=${tag}&page=2`, admin.auth);
    expect(second.json<{ users: PublicUser[] }>().users).toHaveLength(3);

    const pct = await get('/api/users/admin/users?q=%25&limit=9', admin.auth);
    const names = pct.json<{ users: PublicUser[] }>().users.map((u) => u.name);
    expect(names).toEqual(['100% Pure']);

    // Without page or limit: every match, as an array (spec section 7).
    const all = await get(`/api/users/admin/users?q=${tag}`, admin.auth);
    expect(all.json<PublicUser[]>()).toHaveLength(12);
    const everyone = (await get('/api/users/admin/users', admin.auth)).json<PublicUser[]>();
    expect(everyone.length).toBeGreaterThanOrEqual(14);
    expect(everyone.map((u) => u._id)).toContain(admin.user.id);
    expect(JSON.stringify(everyone)).not.toMatch(/password|tokenVersion/i);
  });
});

describe('GET /api/users/admin/user/:id', () => {
  it('answers the user, 404 for an unknown id and 400 for a malformed one', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const { user } = await insertUser(ctx.db, { name: 'Read Me' });
    const res = await get(`/api/users/admin/user/${user.id}`, admin.auth);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: user.id, name: 'Read Me', email: user.email, isAdmin: false });
    expect((await get(`/api/users/admin/user/${randomUUID()}`, admin.auth)).statusCode).toBe(404);
    expect((await get('/api/users/admin/user/nope', admin.auth)).statusCode).toBe(400);
  });
});

describe('PUT /api/users/admin/user/:id', () => {
  it('edits name and e-mail without touching the password, and audits it without the hash', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const target = await insertUser(ctx.db, { name: 'Old Name' });
    const email = `new-${randomUUID()}@example.com`;
    const res = await put(`/api/users/admin/user/${target.user.id}`, admin.auth, {
      name: 'New Name',
      email: email.toUpperCase(),
      isAdmin: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'New Name', email, isAdmin: false });
    expect((await login(email)).statusCode).toBe(200);
    // The e-mail changed: the old session ends at once.
    expect((await get('/api/orders', target.auth)).statusCode).toBe(401);

    const [row] = await ctx.db.select().from(users).where(eq(users.id, target.user.id));
    expect(row?.passwordHash).toBe(target.user.passwordHash);
    const audits = await auditFor(target.user.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ action: 'user.update', actorUserId: admin.user.id });
    expect(audits[0]?.before).toEqual({ name: 'Old Name', email: target.user.email, isAdmin: false });
    expect(JSON.stringify(audits)).not.toContain('$argon2');
  });

  it('keeps the session when only the name changes', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const target = await insertUser(ctx.db);
    const res = await put(`/api/users/admin/user/${target.user.id}`, admin.auth, {
      name: 'Renamed',
      email: target.user.email,
      isAdmin: false,
    });
    expect(res.statusCode).toBe(200);
    expect((await get('/api/orders', target.auth)).statusCode).toBe(200);
  });

  it('refuses an e-mail another account has, whatever its case, with 409', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const taken = await insertUser(ctx.db);
    const target = await insertUser(ctx.db);
    const res = await put(`/api/users/admin/user/${target.user.id}`, admin.auth, {
      name: 'X',
      email: taken.user.email.toUpperCase(),
      isAdmin: false,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(/already exists/);
  });

  it('promotes a customer, who is admin on the next request with a new login', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const target = await insertUser(ctx.db);
    const res = await put(`/api/users/admin/user/${target.user.id}`, admin.auth, {
      name: target.user.name,
      email: target.user.email,
      isAdmin: true,
    });
    expect(res.statusCode).toBe(200);
    const relogged = await login(target.user.email);
    const token = relogged.json<{ token: string; isAdmin: boolean }>();
    expect(token.isAdmin).toBe(true);
    expect((await get('/api/users/admin/users', { authorization: `Bearer ${token.token}` })).statusCode).toBe(
      200,
    );
  });

  it('revokes an admin: their very next admin call is refused', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const other = await insertUser(ctx.db, { isAdmin: true });
    expect((await get('/api/users/admin/users', other.auth)).statusCode).toBe(200);
    const res = await put(`/api/users/admin/user/${other.user.id}`, admin.auth, {
      name: other.user.name,
      email: other.user.email,
      isAdmin: false,
    });
    expect(res.statusCode).toBe(200);
    expect([401, 403]).toContain((await get('/api/users/admin/users', other.auth)).statusCode);
    // With a fresh login they are a customer: 403.
    const relogged = (await login(other.user.email)).json<{ token: string }>();
    expect(
      (await get('/api/users/admin/users', { authorization: `Bearer ${relogged.token}` })).statusCode,
    ).toBe(403);
  });

  it("ends the user's session on a role or e-mail change: the next call says so with SESSION_ENDED (issue 30)", async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const customer = await insertUser(ctx.db);
    const promoted = await insertUser(ctx.db);
    await put(`/api/users/admin/user/${customer.user.id}`, admin.auth, {
      name: customer.user.name,
      email: `moved-${customer.user.email}`,
      isAdmin: false,
    });
    await put(`/api/users/admin/user/${promoted.user.id}`, admin.auth, {
      name: promoted.user.name,
      email: promoted.user.email,
      isAdmin: true,
    });
    for (const ended of [customer, promoted]) {
      const res = await get('/api/orders', ended.auth);
      expect(res.statusCode).toBe(401);
      // The spec's message, which makes the app log out; the code tells the login page why.
      expect(res.json()).toEqual({ message: 'Not authorized!', code: 'SESSION_ENDED' });
    }
  });

  it('refuses to let an admin demote themself', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    await insertUser(ctx.db, { isAdmin: true });
    const res = await put(`/api/users/admin/user/${admin.user.id}`, admin.auth, {
      name: admin.user.name,
      email: admin.user.email,
      isAdmin: false,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(/own admin/);
  });
});

describe('DELETE /api/users/admin/user/:id', () => {
  it('deletes the user: their token stops at once, their orders stay readable with the snapshot e-mail', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const customer = await insertUser(ctx.db);
    const product = await insertProduct(ctx.db, { stock: 10 });
    const order = await placeOrder(ctx.app, customer.auth, [{ product: product.id, itemQuantity: 1 }]);

    const res = await del(`/api/users/admin/user/${customer.user.id}`, admin.auth);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'User deleted' });
    expect((await get('/api/orders', customer.auth)).statusCode).toBe(401);
    expect((await login(customer.user.email)).statusCode).toBe(401);
    expect((await get(`/api/users/admin/user/${customer.user.id}`, admin.auth)).statusCode).toBe(404);

    const kept = await get(`/api/orders/${order._id}`, admin.auth);
    expect(kept.statusCode).toBe(200);
    expect(kept.json<Order>().user).toBeNull();
    const [row] = await ctx.db.select().from(users).where(eq(users.id, customer.user.id));
    expect(row).toBeUndefined();
    const list = await get(`/api/orders/admin/vieworders?q=${order._id}`, admin.auth);
    expect(list.json<Order[]>()[0]).toMatchObject({ _id: order._id, user: null });

    const audits = await auditFor(customer.user.id);
    expect(audits.map((a) => a.action)).toEqual(['user.delete']);
    expect(audits[0]?.before).toEqual({
      name: customer.user.name,
      email: customer.user.email,
      isAdmin: false,
    });
    expect((await del(`/api/users/admin/user/${customer.user.id}`, admin.auth)).statusCode).toBe(404);
  });

  it("answers the deleted user's next call 401 'Not authorized!' with the code ACCOUNT_DELETED (issue 30)", async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const customer = await insertUser(ctx.db);
    expect((await get('/api/users/profile', customer.auth)).statusCode).toBe(200);
    expect((await del(`/api/users/admin/user/${customer.user.id}`, admin.auth)).statusCode).toBe(200);
    for (const url of ['/api/users/profile', '/api/orders']) {
      const res = await get(url, customer.auth);
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual({ message: 'Not authorized!', code: 'ACCOUNT_DELETED' });
    }
    // Without a token, or with a forged one, it stays the plain refusal.
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/orders' });
    expect(anonymous.json()).toEqual({ message: 'Not authorized!', code: 'NOT_AUTHORIZED' });
  });

  it('refuses to let an admin delete themself', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const res = await del(`/api/users/admin/user/${admin.user.id}`, admin.auth);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(/own account/);
  });
});

describe('the last admin', () => {
  it('can never be demoted or deleted, even by two admins demoting each other at once', async () => {
    // Own database: every other admin of this file would count.
    const own = await createTestContext();
    try {
      const a = await insertUser(own.db, { isAdmin: true });
      const b = await insertUser(own.db, { isAdmin: true });
      const demote = (actor: typeof a, target: typeof a) =>
        own.app.inject({
          method: 'PUT',
          url: `/api/users/admin/user/${target.user.id}`,
          headers: actor.auth,
          payload: { name: target.user.name, email: target.user.email, isAdmin: false },
        });
      const results = await Promise.all([demote(a, b), demote(b, a)]);
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      // The loser: 401 (its token died with its demotion), 403 (demoted while it waited for the lock) or 409.
      for (const r of results.filter((x) => x.statusCode !== 200))
        expect([401, 403, 409]).toContain(r.statusCode);

      const admins = await own.db.select().from(users).where(eq(users.isAdmin, true));
      expect(admins).toHaveLength(1);
      const last = admins[0]?.id === a.user.id ? a : b;
      const demoted = last === a ? b : a;

      // The demoted one gets their rights back from the last admin, then tries to remove them.
      const restore = await own.app.inject({
        method: 'PUT',
        url: `/api/users/admin/user/${demoted.user.id}`,
        headers: last.auth,
        payload: { name: demoted.user.name, email: demoted.user.email, isAdmin: true },
      });
      expect(restore.statusCode).toBe(200);
      const relogged = await own.app.inject({
        method: 'POST',
        url: '/api/users/login',
        payload: { email: demoted.user.email, password: DEFAULT_PASSWORD },
      });
      const token = { authorization: `Bearer ${relogged.json<{ token: string }>().token}` };
      const deleted = await own.app.inject({
        method: 'DELETE',
        url: `/api/users/admin/user/${last.user.id}`,
        headers: token,
      });
      expect(deleted.statusCode).toBe(200);
      // Now `demoted` is the only admin: nobody can remove them, not even themself.
      const selfDemote = await own.app.inject({
        method: 'PUT',
        url: `/api/users/admin/user/${demoted.user.id}`,
        headers: token,
        payload: { name: demoted.user.name, email: demoted.user.email, isAdmin: false },
      });
      expect(selfDemote.statusCode).toBe(409);
      expect((await own.db.select().from(users).where(eq(users.isAdmin, true))).length).toBe(1);
    } finally {
      await own.close();
    }
  });

  it('refuses deleting the last admin with 409 (checked under the lock)', async () => {
    const own = await createTestContext();
    try {
      const a = await insertUser(own.db, { isAdmin: true });
      const b = await insertUser(own.db, { isAdmin: true });
      const [x, y] = await Promise.all([
        own.app.inject({ method: 'DELETE', url: `/api/users/admin/user/${b.user.id}`, headers: a.auth }),
        own.app.inject({ method: 'DELETE', url: `/api/users/admin/user/${a.user.id}`, headers: b.auth }),
      ]);
      expect([x?.statusCode, y?.statusCode].filter((c) => c === 200)).toHaveLength(1);
      expect((await own.db.select().from(users).where(eq(users.isAdmin, true))).length).toBe(1);
    } finally {
      await own.close();
    }
  });
});

describe('POST /api/users/admin/add', () => {
  it('adds a customer who can log in, refuses a taken e-mail with 409, audits without the password', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const email = `added-${randomUUID()}@example.com`;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/admin/add',
      headers: admin.auth,
      payload: { name: 'Added', email, password: 'a fine password', isAdmin: true },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<PublicUser>();
    expect(created).toMatchObject({ name: 'Added', email, isAdmin: false });
    expect(JSON.stringify(created)).not.toMatch(/password/i);
    expect((await login(email, 'a fine password')).statusCode).toBe(200);

    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/admin/add',
      headers: admin.auth,
      payload: { name: 'Again', email: email.toUpperCase(), password: 'a fine password' },
    });
    expect(again.statusCode).toBe(409);

    const audit = await get('/api/admin/audit?limit=200', admin.auth);
    expect(audit.statusCode).toBe(200);
    const entries = audit.json<{ entries: AuditEntry[] }>().entries;
    const entry = entries.find((e) => e.targetId === created._id);
    expect(entry).toMatchObject({
      action: 'user.create',
      targetType: 'user',
      actor: { _id: admin.user.id, name: admin.user.name, email: admin.user.email },
      before: null,
      after: { name: 'Added', email, isAdmin: false },
    });
    expect(audit.body).not.toMatch(/argon2|a fine password|passwordHash|tokenVersion/);
  });
});

describe('GET /api/admin/audit', () => {
  it('keeps the rows of a deleted admin, with no actor, newest first and paged', async () => {
    const a = await insertUser(ctx.db, { isAdmin: true });
    const b = await insertUser(ctx.db, { isAdmin: true });
    const added = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/admin/add',
      headers: b.auth,
      payload: { name: 'By B', email: `by-b-${randomUUID()}@example.com`, password: 'a fine password' },
    });
    expect(added.statusCode).toBe(201);
    expect((await del(`/api/users/admin/user/${b.user.id}`, a.auth)).statusCode).toBe(200);

    const res = await get('/api/admin/audit?limit=1', a.auth);
    expect(res.statusCode).toBe(200);
    const page = res.json<{ entries: AuditEntry[]; page: number; totalPage: number; total: number }>();
    expect(page.entries).toHaveLength(1);
    expect(page.entries[0]).toMatchObject({
      action: 'user.delete',
      targetId: b.user.id,
      actor: { _id: a.user.id },
    });
    const second = (await get('/api/admin/audit?limit=1&page=2', a.auth)).json<{ entries: AuditEntry[] }>();
    expect(second.entries[0]).toMatchObject({
      action: 'user.create',
      actor: null,
      targetId: added.json<PublicUser>()._id,
    });
    expect(page.totalPage).toBe(page.total);
  });
});
