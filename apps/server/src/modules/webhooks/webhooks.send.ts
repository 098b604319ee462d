import { createHmac } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { type LookupFunction, isIP } from 'node:net';
import {
  type Resolve,
  WebhookAddressError,
  checkWebhookUrl,
  refusedAddress,
  resolveAllowed,
  systemResolve,
} from './webhooks.address.js';

/**
 * One webhook attempt over HTTP (issue 37, the Standard Webhooks spec): sign, POST, read the status.
 * Never follows a redirect (a 3xx is a failure: the Location could point anywhere), never reads more
 * than a few kilobytes of an answer, and gives up after `timeoutMs` for the whole exchange (the
 * name's resolution, the connection, the answer).
 */

export const WEBHOOK_USER_AGENT = 'PixelVault-Webhooks/1.0';
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** What is read of an answer before it is dropped: nobody reads it, the socket must just drain. */
const ANSWER_CAP_BYTES = 16 * 1024;

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the bytes after `whsec_`. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface Attempt {
  url: string;
  secret: string;
  /** The event id: the webhook-id header, the same on every attempt. */
  eventId: string;
  body: string;
  /** This attempt's time (the injected clock): the webhook-timestamp header. */
  at: Date;
}

export type AttemptResult =
  { ok: true; status: number } | { ok: false; status: number | null; error: string };

export interface SendOptions {
  allowLocal: boolean;
  timeoutMs?: number;
  resolve?: Resolve;
}

/**
 * The connection's own name lookup: the addresses resolved here are checked and are the only ones
 * the socket may use, so a second resolution cannot bring another (DNS rebinding).
 */
function pinnedLookup(allowLocal: boolean, resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowed(hostname, allowLocal, resolve).then(
      (addresses: LookupAddress[]) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted === 0 ? addresses : addresses.filter((a) => a.family === wanted);
        const first = usable[0];
        if (!first) {
          callback(new WebhookAddressError(`The host ${hostname} has no usable address`), '', 0);
        } else if (options.all) {
          (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
        } else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

function describe(error: unknown, timeoutMs: number, timedOut: boolean): string {
  if (timedOut) return `Timed out after ${timeoutMs / 1000} s`;
  if (error instanceof WebhookAddressError) return error.message;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED') return 'Connection refused';
  if (code === 'ECONNRESET') return 'Connection reset by the receiver';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'The host could not be resolved';
  return `Could not connect: ${message}`.slice(0, 500);
}

export async function sendWebhook(attempt: Attempt, options: SendOptions): Promise<AttemptResult> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  let url: URL;
  let host: string;
  try {
    ({ url, host } = checkWebhookUrl(attempt.url, options.allowLocal));
    // An IP literal is never looked up by the socket: checked here.
    const why = isIP(host) === 0 ? null : refusedAddress(host, options.allowLocal);
    if (why) throw new WebhookAddressError(`The host ${host} is ${why}: not allowed`);
  } catch (error) {
    return { ok: false, status: null, error: describe(error, timeoutMs, false) };
  }
  const timestamp = Math.floor(attempt.at.getTime() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': attempt.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(attempt.secret, attempt.eventId, timestamp, attempt.body),
    'content-length': String(Buffer.byteLength(attempt.body)),
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((settle) => {
    let done = false;
    let timedOut = false;
    const finish = (result: AttemptResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      request.destroy();
      settle(result);
    };
    const request = client.request(url, {
      method: 'POST',
      headers,
      // A fresh connection each time, resolved by pinnedLookup: no pooled socket to another address.
      agent: false,
      lookup: pinnedLookup(options.allowLocal, options.resolve ?? systemResolve),
    });
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new Error('timeout'));
    }, timeoutMs);
    request.on('error', (error) =>
      finish({ ok: false, status: null, error: describe(error, timeoutMs, timedOut) }),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      const outcome = (): AttemptResult =>
        status >= 200 && status < 300
          ? { ok: true, status }
          : status >= 300 && status < 400
            ? { ok: false, status, error: `Redirects are not followed (HTTP ${status})` }
            : { ok: false, status, error: `HTTP ${status}` };
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > ANSWER_CAP_BYTES) finish(outcome());
      });
      response.on('end', () => finish(outcome()));
      response.on('error', (error) =>
        finish({ ok: false, status, error: describe(error, timeoutMs, timedOut) }),
      );
      // Cut off mid-answer (the timeout, or the receiver hung up): no 'end', maybe no 'error'.
      response.on('close', () =>
        finish({
          ok: false,
          status,
          error: timedOut ? describe(null, timeoutMs, true) : 'The answer was cut off',
        }),
      );
    });
    request.on('close', () =>
      finish({
        ok: false,
        status: null,
        error: timedOut ? describe(null, timeoutMs, true) : 'Connection closed',
      }),
    );
    request.end(attempt.body);
  });
}
