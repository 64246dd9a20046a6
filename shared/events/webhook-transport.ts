/**
 * One webhook POST: the exact body bytes, the subscription's timeout, no redirects followed, and the
 * address actually dialled checked by `assertAddressAllowed` inside the DNS lookup (so a host that
 * re-resolves to a private address between checks is still refused).
 */
import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { assertAddressAllowed, isLocalMode } from '#events/url-safety';

export interface PostResult {
  ok: boolean;
  statusCode: number | null;
  /** Milliseconds from request start to response end (or failure). */
  latencyMs: number;
  /** Short reason for a failure (`timeout`, `status 503`, `unsafe address: ...`, a socket error code). */
  error: string | null;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs `body` to `url`. 2xx is success; any other status, a redirect, a timeout or a refused address is
 * a failure. Never throws.
 * @param timeoutMs whole-request timeout in milliseconds
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): PostResult => ({
    ok: error === null && statusCode !== null && statusCode >= 200 && statusCode < 300,
    statusCode,
    latencyMs: Math.round(performance.now() - started),
    error,
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(done(null, 'invalid url'));
    }
    const local = isLocalMode();
    // An IP literal skips the lookup below, so check it here.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(literal)) {
      try {
        assertAddressAllowed(literal, target.protocol, local);
      } catch (e) {
        return resolve(done(null, `unsafe address: ${(e as Error).message}`));
      }
    }
    // Every resolved address is checked; the answer takes the shape asked for (`all: true` is what Node's
    // happy-eyeballs connect, the default since Node 20, asks for).
    const guardedLookup: LookupFunction = (hostname, options, callback) => {
      dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err, '', 0);
        try {
          for (const a of addresses) assertAddressAllowed(a.address, target.protocol, local);
        } catch (e) {
          return callback(Object.assign(new Error((e as Error).message), { code: 'EUNSAFEADDRESS' }), '', 0);
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      });
    };
    const client = target.protocol === 'https:' ? https : http;
    let req: http.ClientRequest;
    try {
      req = client.request(target, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      // A header Node refuses to send (ERR_INVALID_HTTP_TOKEN / ERR_INVALID_CHAR) is a failed attempt, not a throw.
      return resolve(done(null, (err as NodeJS.ErrnoException).code ?? 'invalid request'));
    }
    req.on('response', (res) => {
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) res.destroy();
      });
      res.on('close', () => {
        const status = res.statusCode ?? null;
        resolve(done(status, status !== null && status >= 200 && status < 300 ? null : `status ${status}`));
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.name === 'AbortError' || err.name === 'TimeoutError') return resolve(done(null, 'timeout'));
      resolve(done(null, err.code === 'EUNSAFEADDRESS' ? `unsafe address: ${err.message}` : (err.code ?? err.message)));
    });
    req.end(body);
  });
}
