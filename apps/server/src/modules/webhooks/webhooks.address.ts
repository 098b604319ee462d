import { promises as dns } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may be sent (issue 37, docs/integrations.md, "Security"): never into the shop's own
 * network (server-side request forgery). Checked when an endpoint is saved AND at every delivery, on the
 * addresses the connection really uses (webhooks.send.ts pins them), so a name that resolved to a public
 * address at save time and to 10.0.0.5 now (DNS rebinding) is refused.
 */

/** Never a target, whatever the setting: nobody's webhook receiver lives there. */
const ALWAYS = new BlockList();
ALWAYS.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network"
ALWAYS.addSubnet('100.64.0.0', 10, 'ipv4'); // carrier-grade NAT (shared address space)
ALWAYS.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local: cloud metadata (169.254.169.254)
ALWAYS.addSubnet('192.0.0.0', 24, 'ipv4'); // IETF protocol assignments
ALWAYS.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
ALWAYS.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, and the broadcast address
ALWAYS.addAddress('::', 'ipv6'); // unspecified
ALWAYS.addSubnet('fe80::', 10, 'ipv6'); // link-local
ALWAYS.addSubnet('ff00::', 8, 'ipv6'); // multicast

/** The shop's own machine and network: allowed only with WEBHOOKS_ALLOW_LOCAL=true (tests, a lab). */
const LOCAL = new BlockList();
LOCAL.addSubnet('127.0.0.0', 8, 'ipv4'); // loopback
LOCAL.addSubnet('10.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('172.16.0.0', 12, 'ipv4');
LOCAL.addSubnet('192.168.0.0', 16, 'ipv4');
LOCAL.addAddress('::1', 'ipv6'); // loopback
LOCAL.addSubnet('fc00::', 7, 'ipv6'); // unique-local

/** An IPv6 address's 8 groups as numbers, or null when it is not one. */
function groupsOf(address: string): number[] | null {
  let text = address.toLowerCase();
  // A dotted IPv4 tail (`::ffff:10.0.0.5`) is two groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] && dotted[2]) {
    if (isIP(dotted[2]) !== 4) return null;
    const [a = 0, b = 0, c = 0, d = 0] = dotted[2].split('.').map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  const numbers = groups.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return numbers.some(Number.isNaN) ? null : numbers;
}

const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 one carries and reaches, judged as that address: IPv4-mapped
 * (`::ffff:10.0.0.5`), IPv4-compatible (`::10.0.0.5`, deprecated), NAT64 (`64:ff9b::10.0.0.5`) and
 * 6to4 (`2002:0a00:0005::`), so none of them is a way around the IPv4 rules.
 */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  if (isIP(address) === 4) return { address, family: 'ipv4' };
  const g = groupsOf(address);
  if (!g) return { address: address.toLowerCase(), family: 'ipv6' };
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = g;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(5) && g5 === 0xffff) return { address: v4(g6, g7), family: 'ipv4' };
  // `::a.b.c.d`, but not `::` and `::1` (judged as IPv6 below).
  if (zeroTo(6) && g6 !== 0) return { address: v4(g6, g7), family: 'ipv4' };
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return { address: v4(g6, g7), family: 'ipv4' };
  }
  if (g0 === 0x2002) return { address: v4(g1 ?? 0, g2 ?? 0), family: 'ipv4' };
  return { address: address.toLowerCase(), family: 'ipv6' };
}

/** Why `address` may not be a target (a sentence part), or null when it may. */
export function refusedAddress(address: string, allowLocal: boolean): string | null {
  const { address: plain, family } = unmapped(address);
  if (ALWAYS.check(plain, family)) return `a reserved or link-local address (${address})`;
  if (!allowLocal && LOCAL.check(plain, family)) return `a private or loopback address (${address})`;
  return null;
}

export class WebhookAddressError extends Error {
  override name = 'WebhookAddressError';
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The rules a URL must meet before any name is resolved: https (http only to this machine, and only
 * with the setting), no credentials in it. Answers the host to resolve (brackets of IPv6 removed).
 */
export function checkWebhookUrl(raw: string, allowLocal: boolean): { url: URL; host: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookAddressError('The URL is not an absolute URL');
  }
  const host = url.hostname.toLowerCase();
  if (url.protocol === 'http:') {
    if (!allowLocal || !LOCAL_HOSTS.has(host)) {
      throw new WebhookAddressError(
        'The URL must use https (http is allowed only to 127.0.0.1 or localhost when WEBHOOKS_ALLOW_LOCAL=true)',
      );
    }
  } else if (url.protocol !== 'https:') {
    throw new WebhookAddressError('The URL must use https');
  }
  if (url.username !== '' || url.password !== '') {
    throw new WebhookAddressError('The URL must not contain a user name or password');
  }
  return { url, host: host.startsWith('[') ? host.slice(1, -1) : host };
}

export type Resolve = (host: string) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (host) => dns.lookup(host, { all: true, verbatim: true });

/**
 * Every address `host` resolves to, each allowed, else a WebhookAddressError naming the first that
 * is not. An IP literal is its own one address.
 */
export async function resolveAllowed(
  host: string,
  allowLocal: boolean,
  resolve: Resolve = systemResolve,
): Promise<LookupAddress[]> {
  const family = isIP(host);
  let addresses: LookupAddress[];
  if (family !== 0) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new WebhookAddressError(`The host ${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw new WebhookAddressError(`The host ${host} could not be resolved`);
  for (const { address } of addresses) {
    const why = refusedAddress(address, allowLocal);
    if (why) throw new WebhookAddressError(`The host ${host} resolves to ${why}: not allowed`);
  }
  return addresses;
}
