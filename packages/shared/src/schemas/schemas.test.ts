import { describe, expect, it } from 'vitest';
import { ContactBody } from './contact.js';
import { IdParams } from './common.js';
import { ProductListQuery, PRODUCTS_MAX_LIMIT } from './products.js';
import { RegisterBody } from './users.js';

describe('RegisterBody', () => {
  it('lowercases and trims the e-mail and strips unknown fields such as isAdmin', () => {
    const parsed = RegisterBody.parse({
      name: '  Ada Lovelace ',
      email: ' Ada@Example.COM ',
      password: 'correct horse',
      isAdmin: true,
    });
    expect(parsed).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse' });
  });

  it('refuses a password shorter than 8 characters with a readable message', () => {
    const result = RegisterBody.safeParse({ name: 'A', email: 'a@b.co', password: 'short' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Password must be at least 8 characters');
  });

  it('refuses a non-string e-mail', () => {
    expect(RegisterBody.safeParse({ name: 'A', email: ['a@b.co'], password: '12345678' }).success).toBe(
      false,
    );
  });
});

describe('ProductListQuery', () => {
  it('clamps a limit above the maximum instead of refusing it', () => {
    expect(ProductListQuery.parse({ limit: '5000' }).limit).toBe(PRODUCTS_MAX_LIMIT);
  });

  it('defaults to page 1 and refuses page 0 or a non-number', () => {
    expect(ProductListQuery.parse({}).page).toBe(1);
    expect(ProductListQuery.safeParse({ page: '0' }).success).toBe(false);
    expect(ProductListQuery.safeParse({ page: 'abc' }).success).toBe(false);
  });

  it('accepts only the four category slugs', () => {
    expect(ProductListQuery.parse({ category: 'board-games' }).category).toBe('board-games');
    expect(ProductListQuery.safeParse({ category: 'home' }).success).toBe(false);
  });
});

describe('IdParams', () => {
  it('accepts a UUID and refuses anything else', () => {
    expect(IdParams.safeParse({ id: '3f0c5f1e-8a1b-4c2d-9e3f-0a1b2c3d4e5f' }).success).toBe(true);
    expect(IdParams.safeParse({ id: '1' }).success).toBe(false);
    expect(IdParams.safeParse({ id: "1' OR '1'='1" }).success).toBe(false);
  });
});

describe('ContactBody', () => {
  it('requires a name, a valid e-mail and a message', () => {
    expect(ContactBody.safeParse({ from_name: ' ', from_email: 'a@b.co', message: 'hi' }).success).toBe(
      false,
    );
    expect(ContactBody.safeParse({ from_name: 'A', from_email: 'nope', message: 'hi' }).success).toBe(false);
    expect(ContactBody.safeParse({ from_name: 'A', from_email: 'a@b.co', message: '' }).success).toBe(false);
    expect(ContactBody.parse({ from_name: 'A', from_email: 'A@B.co', message: 'hi' }).from_email).toBe(
      'a@b.co',
    );
  });
});
