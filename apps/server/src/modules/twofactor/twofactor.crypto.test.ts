import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import {
  createSecretBox,
  hashRecoveryCode,
  matchTotp,
  newRecoveryCode,
  newTotpSecret,
} from './twofactor.crypto.js';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

describe('TOTP with an injected clock', () => {
  const secret = newTotpSecret();
  // 10 s into a step.
  const now = new Date((Math.floor(Date.now() / 30_000) * 30 + 10) * 1000);
  const code = (stepsBack: number) => generateSync({ secret, epoch: now.getTime() / 1000 - stepsBack * 30 });
  const step = Math.floor(now.getTime() / 30_000);

  it('accepts the current and the previous step, not two back nor the next', async () => {
    expect(await matchTotp(secret, code(0), now, null)).toBe(step);
    expect(await matchTotp(secret, code(1), now, null)).toBe(step - 1);
    expect(await matchTotp(secret, code(2), now, null)).toBeNull();
    expect(await matchTotp(secret, code(-1), now, null)).toBeNull();
  });

  it('refuses a code of the last used step or an earlier one (replay)', async () => {
    expect(await matchTotp(secret, code(0), now, step)).toBeNull();
    expect(await matchTotp(secret, code(1), now, step - 1)).toBeNull();
    expect(await matchTotp(secret, code(0), now, step - 1)).toBe(step);
  });
});

describe('the secret at rest', () => {
  it('round-trips, differs each time, and refuses a tampered or foreign box', () => {
    const box = createSecretBox(SECRET);
    const a = box.seal('JBSWY3DPEHPK3PXPJBSWY3DP');
    expect(a).not.toBe(box.seal('JBSWY3DPEHPK3PXPJBSWY3DP'));
    expect(a).not.toContain('JBSWY3DP');
    expect(box.open(a)).toBe('JBSWY3DPEHPK3PXPJBSWY3DP');
    // One character of the body changed (never to itself: the 1 in 64 case that made this flaky).
    const at = a.length - 2;
    const tampered = `${a.slice(0, at)}${a[at] === 'A' ? 'B' : 'A'}${a.slice(at + 1)}`;
    expect(() => box.open(tampered)).toThrow();
    expect(() => createSecretBox(`${SECRET}x`).open(a)).toThrow();
  });
});

describe('recovery codes', () => {
  it('look like abcde-fgh23 and hash alike whatever the case and dash', () => {
    const code = newRecoveryCode();
    expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(hashRecoveryCode(code.toUpperCase().replace('-', ''))).toBe(hashRecoveryCode(code));
  });
});
