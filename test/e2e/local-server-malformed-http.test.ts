/**
 * The local server answers malformed HTTP in the spec's envelope (spec "Errors"), over a raw socket: what
 * Node's parser refuses (lib/local/client-error.ts), a request without Host, an unknown `Expect`, an odd request
 * target, an oversized body. Nothing reaches a handler, and the server keeps serving.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { envelopeProblem } from '../support/envelope-check.ts';

let t: TestApi;
let org: TestOrg;
let port: number;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Raw Socket Realty');
  port = Number(new URL(t.baseUrl).port);
  // Warm the handlers (the first request loads every operation module).
  await t.call('GET', '/api/v1/health', { key: org.keys.read });
});
afterAll(() => t.close());

/** Writes `bytes` on a fresh connection and reads until the server closes it (or 10 s pass). */
function exchange(bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (c) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

/** Status, headers and body of the first response in `raw`. */
function parse(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  let body = raw.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    let out = '';
    for (let i = 0; ; ) {
      const eol = body.indexOf('\r\n', i);
      const size = parseInt(body.slice(i, eol), 16);
      if (!size) break;
      out += body.slice(eol + 2, eol + 2 + size);
      i = eol + 2 + size + 2;
    }
    body = out;
  } else if (headers['content-length']) body = body.slice(0, Number(headers['content-length']));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function expectEnvelope(raw: string, status: number) {
  const r = parse(raw);
  expect(r.status, raw.slice(0, 200)).toBe(status);
  expect(envelopeProblem(r.status, r.headers['content-type'], r.body)).toBeUndefined();
  expect(JSON.parse(r.body).error).toMatchObject({ code: 'validation_error', fields: { request: expect.any(String) } });
}

describe('what Node’s HTTP parser refuses gets the envelope, not a bare 400', () => {
  it.each([
    ['a request line that is not HTTP', 'HELLO\r\n\r\n'],
    ['a space inside the target', 'GET /api/v1/health now HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a control byte in a header value', 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n'],
    ['a header line without a colon', 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
    ['both Content-Length and Transfer-Encoding (request smuggling)', 'POST /api/v1/tasks/delete HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['two different Content-Length values', 'POST /api/v1/tasks/delete HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}'],
    ['a bad chunk size', 'POST /api/v1/tasks/delete HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
    ['an unknown HTTP version', 'GET /api/v1/health HTTP/9.9\r\nHost: x\r\n\r\n'],
  ])('%s → 400 validation_error', async (_what, bytes) => {
    expectEnvelope(await exchange(bytes), 400);
  });

  it('headers over 16 KB → 431 validation_error', async () => {
    expectEnvelope(await exchange(`GET /api/v1/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'A'.repeat(20_000)}\r\n\r\n`), 431);
  });

  it('an HTTP/1.1 request without Host → 400 validation_error (RFC 9112 §3.2)', async () => {
    expectEnvelope(await exchange(`GET /api/v1/health HTTP/1.1\r\nAuthorization: Bearer ${org.keys.read}\r\n\r\n`), 400);
  });
});

describe('odd but well-formed requests reach the pipeline', () => {
  it('an Expect other than 100-continue is ignored (RFC 9110 §10.1.1), not a bare 417', async () => {
    const r = parse(await exchange(`GET /api/v1/health HTTP/1.1\r\nHost: x\r\nExpect: gzip\r\nAuthorization: Bearer ${org.keys.read}\r\nConnection: close\r\n\r\n`));
    expect(r.status).toBe(200);
  });

  it('a target the URL parser refuses (//[) is a 404 envelope, not a crash', async () => {
    const r = parse(await exchange(`GET //[ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.keys.read}\r\nConnection: close\r\n\r\n`));
    expect(r.status).toBe(404);
    expect(envelopeProblem(r.status, r.headers['content-type'], r.body)).toBeUndefined();
  });

  it('a JSON body that is not UTF-8 is a 422 on fields.body, not a silently repaired string', async () => {
    const body = Buffer.from([0x7b, 0x22, 0x74, 0x61, 0x73, 0x6b, 0x49, 0x64, 0x73, 0x22, 0x3a, 0x5b, 0x22, 0xff, 0x22, 0x5d, 0x7d]); // {"taskIds":["\xff"]}
    const head = `POST /api/v1/tasks/delete HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.keys.actions}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const r = parse(await exchange(Buffer.concat([Buffer.from(head), body])));
    expect(r.status).toBe(422);
    expect(JSON.parse(r.body).error.fields).toEqual({ body: expect.stringMatching(/UTF-8/) });
  });

  it('a body over 10 MB is a 422 envelope', async () => {
    const r = await t.call('POST', '/api/v1/tasks/delete', { key: org.keys.actions, body: `"${'x'.repeat(10 * 1024 * 1024)}"` });
    expect(r.status).toBe(422);
    expect(envelopeProblem(r.status, r.headers.get('content-type') ?? undefined, r.text)).toBeUndefined();
  });

  it('the server still serves after all of the above', async () => {
    expect((await t.call('GET', '/api/v1/health', { key: org.keys.read })).status).toBe(200);
  });
});
