import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../test/webhooks.js';
import { type Resolve, checkWebhookUrl, refusedAddress, resolveAllowed } from './webhooks.address.js';
import { sendWebhook, signature } from './webhooks.send.js';

/**
 * Issue 37: where a webhook may go (no request forgery into the shop's network), checked on the
 * addresses the connection really uses, so DNS rebinding cannot slip in after the check.
 */
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** A resolver that answers `addresses` for any name, and counts its calls. */
function fakeDns(...addresses: string[]): Resolve & { calls: number } {
  const resolve = Object.assign(
    async () => {
      resolve.calls += 1;
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
    { calls: 0 },
  );
  return resolve;
}

describe('addresses', () => {
  it('refuses private, loopback, link-local, CGNAT, multicast and their IPv4-mapped forms', () => {
    for (const address of [
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '127.0.0.1',
      '127.9.9.9',
      '::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:a00:1',
      '::ffff:192.168.1.1',
      '::10.0.0.1',
      '64:ff9b::10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
    ]) {
      expect(refusedAddress(address, false), address).toMatch(/private or loopback/);
      expect(refusedAddress(address, true), address).toBeNull();
    }
    for (const address of [
      '169.254.169.254',
      'fe80::1',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      'ff02::1',
      '::',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '64:ff9b::169.254.169.254',
      '2002:a9fe:a9fe::',
    ]) {
      expect(refusedAddress(address, true), address).toMatch(/reserved or link-local/);
    }
    for (const address of [
      '93.184.216.34',
      '2606:2800:220:1:248:1893:25c8:1946',
      '172.32.0.1',
      '100.128.0.1',
    ]) {
      expect(refusedAddress(address, false), address).toBeNull();
    }
  });

  it('refuses a name when any of its addresses is refused', async () => {
    await expect(
      resolveAllowed('hooks.example', false, fakeDns('93.184.216.34', '10.0.0.5')),
    ).rejects.toThrow(/resolves to a private or loopback address \(10\.0\.0\.5\)/);
    await expect(resolveAllowed('hooks.example', false, fakeDns('93.184.216.34'))).resolves.toHaveLength(1);
    await expect(
      resolveAllowed('nowhere.example', false, async () => {
        throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
      }),
    ).rejects.toThrow(/could not be resolved/);
  });

  it('reads the URL rules before any lookup', () => {
    expect(() => checkWebhookUrl('http://localhost:8080/x', false)).toThrow(/https/);
    expect(checkWebhookUrl('http://localhost:8080/x', true).host).toBe('localhost');
    expect(checkWebhookUrl('http://[::1]:8080/x', true).host).toBe('::1');
    expect(() => checkWebhookUrl('http://192.168.1.1/x', true)).toThrow(/https/);
    expect(() => checkWebhookUrl('https://a:b@example.com/', false)).toThrow(/user name or password/);
    expect(() => checkWebhookUrl('https://a@example.com/', false)).toThrow(/user name or password/);
  });
});

describe('a send', () => {
  const attempt = (url: string) => ({
    url,
    secret: `whsec_${Buffer.alloc(32, 3).toString('base64')}`,
    eventId: 'evt_1',
    body: '{"a":1}',
    at: new Date(),
  });

  it('connects to the address its own lookup checked, not to another resolution (DNS rebinding)', async () => {
    const port = new URL(receiver.base).port;
    // The name resolves to a refused address at send time: refused, nothing sent.
    const rebound = fakeDns('169.254.169.254');
    const refused = await sendWebhook(attempt(`http://localhost:${port}/rebind`), {
      allowLocal: true,
      resolve: rebound,
    });
    expect(refused).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/link-local/) });
    expect(rebound.calls).toBe(1);
    // The socket goes where the checked lookup said: 127.0.0.2 has no receiver, 127.0.0.1 has.
    const elsewhere = await sendWebhook(attempt(`http://localhost:${port}/pinned`), {
      allowLocal: true,
      resolve: fakeDns('127.0.0.2'),
    });
    expect(elsewhere).toMatchObject({ ok: false, error: 'Connection refused' });
    const here = await sendWebhook(attempt(`http://localhost:${port}/pinned`), {
      allowLocal: true,
      resolve: fakeDns('127.0.0.1'),
    });
    expect(here).toEqual({ ok: true, status: 200 });
    expect(receiver.hits('/pinned')).toHaveLength(1);
    expect(receiver.hits('/rebind')).toHaveLength(0);
  });

  it('refuses at send time what the setting no longer allows', async () => {
    const result = await sendWebhook(attempt(`${receiver.base}/late`), { allowLocal: false });
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/https/) });
    expect(receiver.hits('/late')).toHaveLength(0);
  });

  it('signs id.timestamp.body with the secret after whsec_', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    // The same as the Standard Webhooks package's own signing.
    const reference = new Webhook(secret).sign('msg_1', new Date(1_700_000_000_000), '{}');
    expect(signature(secret, 'msg_1', 1_700_000_000, '{}')).toBe(reference);
    expect(signature(secret, 'msg_1', 1_700_000_000, '{}')).not.toBe(
      signature(secret, 'msg_1', 1_700_000_001, '{}'),
    );
  });
});
