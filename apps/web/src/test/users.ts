import type { UserInfo } from '@pixel-vault/shared';

export function makeUser(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    _id: '6f1c2d3e-4b5a-4c6d-8e7f-901234567890',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    isAdmin: false,
    createdAt: '2024-01-05T10:00:00.000Z',
    emailVerified: true,
    token: 'header.payload.signature',
    ...overrides,
  };
}
