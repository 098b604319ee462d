import sharp from 'sharp';
import type { Order, Product, UserInfo } from '@pixel-vault/shared';
import { ADMIN_EMAIL, ADMIN_PASSWORD, CUSTOMER_PASSWORD, type Cluster } from './harness.js';

/** An answer the client got: the status, the JSON (or text) body, and which instance nginx chose. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  /** nginx's X-Upstream (`127.0.0.1:port`, the last one tried); null for a call straight to an instance. */
  upstream: string | null;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One HTTP call; a network failure (refused, reset by a kill) rejects. */
export async function call<T = unknown>(
  base: string,
  method: string,
  path: string,
  { token, body, form, headers = {}, timeoutMs = 30_000 }: CallOptions = {},
): Promise<Answer<T>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : form ? { body: form } : {}),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: kept as text.
  }
  const upstream = res.headers.get('x-upstream');
  return { status: res.status, body: parsed as T, upstream: upstream ? lastUpstream(upstream) : null };
}

/** `127.0.0.1:1, 127.0.0.1:2` (nginx tried the first, then the second) -> the one that answered. */
function lastUpstream(header: string): string {
  return header.split(',').at(-1)?.trim() ?? header;
}

/** Bytes, for images. */
export async function getBytes(base: string, path: string) {
  const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(15_000) });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

export const SHIPPING = {
  address: '3 Balancer Row',
  city: 'Upstream',
  postalCode: '30303',
  country: 'Testland',
};

export async function login(base: string, email: string, password: string): Promise<string> {
  const res = await call<UserInfo>(base, 'POST', '/api/users/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

export const adminToken = (cluster: Cluster) => login(cluster.url, ADMIN_EMAIL, ADMIN_PASSWORD);

export interface Customer {
  email: string;
  token: string;
}

/**
 * Separate customers, added by the admin on each instance in turn (sign-up is limited per address, and
 * every customer here comes from 127.0.0.1), then logged in through nginx. Three at a time: hashing
 * runs one at a time per instance on this machine.
 */
export async function makeCustomers(
  cluster: Cluster,
  admin: string,
  prefix: string,
  count: number,
): Promise<Customer[]> {
  const customers: Customer[] = [];
  for (let start = 0; start < count; start += 3) {
    const batch = Array.from({ length: Math.min(3, count - start) }, (_, j) => start + j);
    customers.push(
      ...(await Promise.all(
        batch.map(async (i) => {
          const email = `${prefix}-${i + 1}@cluster.test`;
          const instance = cluster.instances[i % cluster.instances.length]!;
          const added = await call(instance.url, 'POST', '/api/users/admin/add', {
            token: admin,
            body: { name: `${prefix} ${i + 1}`, email, password: CUSTOMER_PASSWORD },
          });
          if (added.status !== 201)
            throw new Error(`add ${email}: ${added.status} ${JSON.stringify(added.body)}`);
          return { email, token: await login(cluster.url, email, CUSTOMER_PASSWORD) };
        }),
      )),
    );
  }
  return customers;
}

/** A small PNG of one colour: every product gets its own bytes. */
export function pngImage(seed: number): Promise<Buffer> {
  return sharp({
    create: {
      width: 96,
      height: 72,
      channels: 3,
      background: { r: (seed * 53) % 256, g: (seed * 101) % 256, b: (seed * 197) % 256 },
    },
  })
    .png()
    .toBuffer();
}

/** POST /api/products/add-new as the admin form sends it (multipart, one image). */
export async function addProduct(
  base: string,
  admin: string,
  fields: { name: string; price: number; stock: number; image: Buffer },
): Promise<Product> {
  const form = new FormData();
  form.set('productName', fields.name);
  form.set('productCategory', 'retro-games');
  form.set('productDescription', `${fields.name}, made by the cluster test.`);
  form.set('productPrice', fields.price.toFixed(2));
  form.set('stockQuantity', String(fields.stock));
  form.set('productRating', '4.5');
  form.set('reviewCount', '0');
  form.append('images', new Blob([new Uint8Array(fields.image)], { type: 'image/png' }), 'box.png');
  const res = await call<Product>(base, 'POST', '/api/products/add-new', { token: admin, form });
  if (res.status !== 201) throw new Error(`add product: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** POST /api/orders for one product; `discountCode` (issue 32) is sent only when given. */
export function placeOrder(
  base: string,
  token: string,
  product: string,
  quantity = 1,
  discountCode?: string,
) {
  return call<Order & { message?: string; code?: string }>(base, 'POST', '/api/orders', {
    token,
    body: {
      orderItems: [{ product, itemQuantity: quantity }],
      shippingAddress: SHIPPING,
      paymentMethod: 'paypal',
      ...(discountCode === undefined ? {} : { discountCode }),
    },
  });
}

/** Polls `check` every few milliseconds until it is true or `boundMs` passed; answers the time it took, or null. */
export async function waitFor(
  check: () => Promise<boolean>,
  boundMs: number,
  everyMs = 10,
): Promise<number | null> {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > boundMs) return null;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
