/**
 * `postWebhook` against a real receiver on 127.0.0.1: 2xx is success, anything else (status, redirect,
 * timeout, refused address) is a failure with a short reason, and it never throws.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postWebhook } from '#events/webhook-transport';
import { startReceiver, status, type Receiver } from './webhook-receiver.ts';

let rx: Receiver;
const savedLocal = process.env.LOCAL_MODE;
beforeAll(async () => {
  rx = await startReceiver();
});
afterEach(() => {
  rx.received.length = 0;
  rx.respondWith(status(200));
});
afterAll(async () => {
  await rx.close();
  if (savedLocal === undefined) delete process.env.LOCAL_MODE;
  else process.env.LOCAL_MODE = savedLocal;
});

describe('postWebhook, local mode', () => {
  beforeEach(() => {
    process.env.LOCAL_MODE = 'true';
  });

  it('200 is ok; the exact body and headers arrive as a POST', async () => {
    const body = '{"eventType":"task.created","n":"Zoë"}';
    const r = await postWebhook(`${rx.url}/hook?x=1`, body, { 'content-type': 'application/json', 'x-webhook-event-id': 'e1' }, 2000);
    expect(r).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0];
    expect(got).toMatchObject({ method: 'POST', path: '/hook?x=1' });
    expect(got.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(got.headers['x-webhook-event-id']).toBe('e1');
  });

  it('any 2xx is ok (204)', async () => {
    rx.respondWith(status(204));
    expect(await postWebhook(`${rx.url}/hook`, '{}', {}, 2000)).toMatchObject({ ok: true, statusCode: 204, error: null });
  });

  it('500 is a failure with "status 500"', async () => {
    rx.respondWith(status(500));
    expect(await postWebhook(`${rx.url}/hook`, '{}', {}, 2000)).toMatchObject({ ok: false, statusCode: 500, error: 'status 500' });
  });

  it('a 302 is a failure and its target is not requested', async () => {
    rx.respondWith((req, res) => {
      if (req.url === '/hook') res.writeHead(302, { location: `${rx.url}/redirected` }).end();
      else res.writeHead(200).end();
    });
    const r = await postWebhook(`${rx.url}/hook`, '{}', {}, 2000);
    expect(r).toMatchObject({ ok: false, statusCode: 302, error: 'status 302' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rx.received.map((q) => q.path)).toEqual(['/hook']);
  });

  it('a receiver that never answers is a "timeout" within timeoutMs', async () => {
    rx.respondWith(() => {});
    const started = performance.now();
    const r = await postWebhook(`${rx.url}/hook`, '{}', {}, 300);
    const elapsed = performance.now() - started;
    expect(r).toMatchObject({ ok: false, statusCode: null, error: 'timeout' });
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2000);
    expect(r.latencyMs).toBeGreaterThanOrEqual(250);
  });

  it('a closed port is a failure with the socket error code', async () => {
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    expect(await postWebhook(`${url}/hook`, '{}', {}, 2000)).toMatchObject({ ok: false, statusCode: null, error: 'ECONNREFUSED' });
  });

  it('an invalid URL is a failure, not a throw', async () => {
    expect(await postWebhook('not a url', '{}', {}, 2000)).toMatchObject({ ok: false, statusCode: null, error: 'invalid url' });
  });

  it('a hostname that resolves to loopback is dialled (guarded lookup works with Node\'s address selection)', async () => {
    const port = new URL(rx.url).port;
    const r = await postWebhook(`http://localhost:${port}/hook`, '{"via":"name"}', {}, 2000);
    expect(r).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(rx.received.map((q) => q.body.toString())).toEqual(['{"via":"name"}']);
  });

  it.each([
    [{ 'bad name': 'x' }, 'ERR_INVALID_HTTP_TOKEN'],
    [{ 'x-note': 'line\r\nX-Injected: 1' }, 'ERR_INVALID_CHAR'],
  ])('a header Node cannot send (%j) is a failed attempt, not a throw', async (headers, code) => {
    const r = await postWebhook(`${rx.url}/hook`, '{}', headers as Record<string, string>, 2000);
    expect(r).toMatchObject({ ok: false, statusCode: null, error: code });
    expect(rx.received).toHaveLength(0);
  });

  it('plain http to a public address is refused before connecting', async () => {
    const r = await postWebhook('http://1.1.1.1/hook', '{}', {}, 2000);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/^unsafe address: plain http/);
  });
});

describe('postWebhook, deployed mode (LOCAL_MODE unset)', () => {
  beforeEach(() => {
    delete process.env.LOCAL_MODE;
  });

  it('posting to 127.0.0.1 is an "unsafe address" and the receiver gets nothing', async () => {
    const r = await postWebhook(`${rx.url}/hook`, '{}', {}, 2000);
    expect(r).toMatchObject({ ok: false, statusCode: null });
    expect(r.error).toMatch(/^unsafe address: /);
    expect(rx.received).toHaveLength(0);
  });

  it('a hostname resolving to loopback is refused at the dialled address', async () => {
    // A fresh receiver: the local-mode tests above may have left a keep-alive socket to `rx` in the agent's pool.
    const fresh = await startReceiver();
    try {
      const r = await postWebhook(`http://localhost:${new URL(fresh.url).port}/hook`, '{}', {}, 2000);
      expect(r.ok).toBe(false);
      expect(r.error).toMatch(/^unsafe address: /);
      expect(fresh.received).toHaveLength(0);
    } finally {
      await fresh.close();
    }
  });
});
