import { describe, expect, it } from 'vitest';
import { ContactBody } from './contact.js';
import { IdParams, requestedPage } from './common.js';
import { PaymentUpdateBody } from './orders.js';
import { PRODUCTS_DEFAULT_LIMIT, ProductListQuery, PRODUCTS_MAX_LIMIT } from './products.js';
import {
  ForgotPasswordBody,
  RegisterBody,
  RESET_TOKEN_INVALID_MESSAGE,
  ResetPasswordBody,
  UpdateProfileBody,
} from './users.js';

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

  it('asks for no page unless page or limit is sent (the whole list), then fills in the defaults', () => {
    const none = ProductListQuery.parse({});
    expect(none.page).toBeUndefined();
    expect(requestedPage(none, PRODUCTS_DEFAULT_LIMIT)).toBeNull();
    expect(requestedPage(ProductListQuery.parse({ limit: '5' }), PRODUCTS_DEFAULT_LIMIT)).toEqual({
      page: 1,
      limit: 5,
    });
    expect(requestedPage(ProductListQuery.parse({ page: '3' }), PRODUCTS_DEFAULT_LIMIT)).toEqual({
      page: 3,
      limit: PRODUCTS_DEFAULT_LIMIT,
    });
  });

  it('refuses page 0 or a non-number', () => {
    expect(ProductListQuery.safeParse({ page: '0' }).success).toBe(false);
    expect(ProductListQuery.safeParse({ page: 'abc' }).success).toBe(false);
    expect(ProductListQuery.safeParse({ limit: '0' }).success).toBe(false);
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

describe('PaymentUpdateBody (spec section 3)', () => {
  const base = { order_id: 'x', status: 'COMPLETED', email_address: 'a@b.co' };

  it("takes updated_time as the spec's clients send it: epoch milliseconds or an ISO string", () => {
    expect(
      PaymentUpdateBody.parse({ ...base, payment_method: 'Gift Card', updated_time: 1_732_000_000_000 }),
    ).toMatchObject({ updated_time: 1_732_000_000_000 });
    expect(
      PaymentUpdateBody.parse({ ...base, payment_method: 'paypal', updated_time: '2024-01-05T10:00:00Z' }),
    ).toMatchObject({ updated_time: '2024-01-05T10:00:00Z' });
    expect(PaymentUpdateBody.safeParse({ ...base, payment_method: 'paypal', updated_time: {} }).success).toBe(
      false,
    );
  });

  it('reads the payment method whatever its casing, and refuses others', () => {
    for (const [sent, read] of [
      ['paypal', 'paypal'],
      ['PayPal', 'paypal'],
      ['Gift Card', 'Gift Card'],
      ['gift card', 'Gift Card'],
      ['gift', 'Gift Card'],
      ['GIFT_CARD', 'Gift Card'],
    ]) {
      expect(PaymentUpdateBody.parse({ payment_method: sent }).payment_method, sent).toBe(read);
    }
    expect(PaymentUpdateBody.safeParse({ payment_method: 'cash' }).success).toBe(false);
    expect(PaymentUpdateBody.safeParse({}).success).toBe(false);
  });

  it('treats an empty gift card code or order id as not sent, and checks a code that is sent', () => {
    expect(PaymentUpdateBody.parse({ payment_method: 'paypal', gift_card_code: '', order_id: '' })).toEqual({
      payment_method: 'paypal',
    });
    expect(
      PaymentUpdateBody.safeParse({ payment_method: 'Gift Card', gift_card_code: 'no spaces!' }).success,
    ).toBe(false);
  });
});

describe('password reset and profile bodies (issue 11)', () => {
  it('accepts a 43-character base64url token and refuses anything else with the invalid-link message', () => {
    const token = 'A'.repeat(42) + '_';
    expect(ResetPasswordBody.parse({ token, password: 'new password' })).toEqual({
      token,
      password: 'new password',
    });
    for (const bad of ['', 'short', 'A'.repeat(44), 'A'.repeat(42) + '=', 42]) {
      const result = ResetPasswordBody.safeParse({ token: bad, password: 'new password' });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(RESET_TOKEN_INVALID_MESSAGE);
    }
  });

  it('lowercases the forgot-password e-mail', () => {
    expect(ForgotPasswordBody.parse({ email: ' Ada@Example.COM ' })).toEqual({ email: 'ada@example.com' });
  });

  it('needs the current password to change the e-mail or the password, not the name', () => {
    expect(UpdateProfileBody.safeParse({ name: 'Ada' }).success).toBe(true);
    const noCurrent = UpdateProfileBody.safeParse({ email: 'new@example.com' });
    expect(noCurrent.success).toBe(false);
    expect(noCurrent.error?.issues[0]?.path).toEqual(['currentPassword']);
    expect(UpdateProfileBody.safeParse({ newPassword: 'long enough', currentPassword: 'x' }).success).toBe(
      true,
    );
  });

  it('refuses an empty change and strips isAdmin', () => {
    expect(UpdateProfileBody.safeParse({}).error?.issues[0]?.message).toBe('Nothing to change');
    expect(UpdateProfileBody.parse({ name: 'Ada', isAdmin: true })).toEqual({ name: 'Ada' });
  });
});
