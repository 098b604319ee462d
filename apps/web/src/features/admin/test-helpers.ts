import { vi } from 'vitest';
import type { GiftCard, PublicUser } from '@pixel-vault/shared';
import { makeUser } from '../../test/users';

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

export function makePublicUser(overrides: Partial<PublicUser> = {}): PublicUser {
  seq += 1;
  return {
    _id: uuid(seq),
    name: `Player ${seq}`,
    email: `player${seq}@example.com`,
    isAdmin: false,
    createdAt: '2024-01-05T10:00:00.000Z',
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
