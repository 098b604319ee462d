import { expect, vi } from 'vitest';
import type { AdminStats, GiftCard, ProductsImportResult, PublicUser, StatsDay } from '@pixel-vault/shared';
import { makeUser } from '../../test/users';
import type { CodePromotion } from './promotion-form';

let seq = 0;
const uuid = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;

export const adminState = { auth: { userInfo: makeUser({ isAdmin: true, name: 'Root Admin' }) } };

export function makeGiftCard(overrides: Partial<GiftCard> = {}): GiftCard {
  seq += 1;
  return {
    _id: uuid(seq),
    code: `GIFT-${seq}`,
    balance: 25,
    createdAt: '2024-01-05T10:00:00.000Z',
    updatedAt: '2024-01-05T10:00:00.000Z',
    ...overrides,
  };
}

/** A discount code as GET /api/promotions/admin lists it: by default 10% off everything, active, unused. */
export function makePromotion(overrides: Partial<CodePromotion> = {}): CodePromotion {
  seq += 1;
  return {
    _id: uuid(seq),
    code: `CODE${seq}`,
    kind: 'percentage',
    value: 10,
    minSubtotal: null,
    startsAt: null,
    endsAt: null,
    usageLimit: null,
    perCustomerLimit: null,
    categories: [],
    products: [],
    active: true,
    used: 0,
    state: 'active',
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

export function makePublicUser(overrides: Partial<PublicUser> = {}): PublicUser {
  seq += 1;
  return {
    _id: uuid(seq),
    name: `Player ${seq}`,
    email: `player${seq}@example.com`,
    isAdmin: false,
    createdAt: '2024-01-05T10:00:00.000Z',
    emailVerified: true,
    ...overrides,
  };
}

/** jsdom has no object URLs; the drop zone's previews need them. */
export function stubObjectUrls() {
  let n = 0;
  const create = vi.fn(() => `blob:preview-${++n}`);
  const revoke = vi.fn();
  Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke });
  return { create, revoke };
}

export function imageFile(name: string, type = 'image/png'): File {
  return new File([new Uint8Array([137, 80, 78, 71])], name, { type });
}

/** The JSON body a stubbed request carried. */
export async function jsonBody(request: Request): Promise<unknown> {
  return JSON.parse(await request.clone().text()) as unknown;
}

/** `n` days of no sales ending on `last`, as GET /api/admin/stats lists them. */
export function quietDays(n: number, last = '2026-11-23'): StatsDay[] {
  const [y, m, d] = last.split('-').map(Number) as [number, number, number];
  return Array.from({ length: n }, (_, i) => ({
    date: new Date(Date.UTC(y, m - 1, d - (n - 1 - i))).toISOString().slice(0, 10),
    orders: 0,
    revenue: 0,
  }));
}

/** GET /api/admin/stats's answer: by default 30 days without a sale, nothing low, nothing open. */
export function makeStats(overrides: Partial<AdminStats> = {}): AdminStats {
  return {
    days: quietDays(30),
    totals: { orders: 0, revenue: 0, averageOrder: 0 },
    topProducts: [],
    lowStock: [],
    openOrders: { unpaid: 0, toDeliver: 0 },
    tradeIns: { creditIssued: 0, itemsBought: 0 },
    ...overrides,
  };
}

/** POST /api/admin/import/products's answer. */
export function makeImportResult(overrides: Partial<ProductsImportResult> = {}): ProductsImportResult {
  return { dryRun: true, created: 0, updated: 0, unchanged: 0, errors: [], changes: [], ...overrides };
}

/** A CSV file as the admin picks it. */
export function csvFile(text: string, name = 'products.csv'): File {
  return new File([text], name, { type: 'text/csv' });
}

/** Moves the focus forward with Tab until it reaches `target` (it must be reachable by keyboard). */
export async function tabTo(user: { tab: () => Promise<void> }, target: HTMLElement, most = 30) {
  for (let i = 0; i < most && document.activeElement !== target; i += 1) await user.tab();
  expect(target).toHaveFocus();
}
