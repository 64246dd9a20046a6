/**
 * Sends one HTTP/1.1 request with exactly the given bytes where `fetch` would refuse or normalise them:
 * repeated headers, any Content-Type, raw body bytes, a request target with percent-escapes of invalid UTF-8.
 */
import http from 'node:http';

export interface RawRequest {
  method: string;
  /** The request target as sent (already percent-encoded where needed). */
  target: string;
  /** Header lines in order; a name may repeat. */
  headers: [string, string][];
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** Sends `req` to `baseUrl` on a fresh connection (no keep-alive, so one bad request cannot taint the next). */
export function sendRaw(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const headers = req.headers.some(([k]) => k.toLowerCase() === 'host') ? req.headers.flat() : [['host', url.host], ...req.headers].flat();
  if (req.body && !req.headers.some(([k]) => k.toLowerCase() === 'content-length')) headers.push('content-length', String(req.body.length));
  return new Promise((resolve, reject) => {
    const r = http.request({ host: url.hostname, port: url.port, method: req.method, path: req.target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(req.body);
  });
}
