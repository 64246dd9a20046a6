/**
 * HTTP side of the benchmark: a keep-alive `node:http` client for the local API (lighter than `fetch`, so
 * the client adds little to what is measured) and a fixed-concurrency runner.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface HttpCall {
  method: 'GET' | 'POST';
  path: string;
  token: string;
  body?: unknown;
}

export interface HttpResult {
  status: number;
  ms: number;
  body: string;
}

export interface HttpClient {
  /** Sends one request and resolves with its status, body and latency (first byte sent → last byte read). */
  send(call: HttpCall): Promise<HttpResult>;
  /** Closes the keep-alive sockets. */
  close(): void;
}

/** A keep-alive client for `baseUrl` with up to `maxSockets` connections. */
export function createHttpClient(baseUrl: string, maxSockets = 16): HttpClient {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  return {
    send(call) {
      const payload = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body));
      return new Promise((resolve, reject) => {
        const t0 = performance.now();
        const req = http.request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            method: call.method,
            path: call.path,
            headers: {
              authorization: `Bearer ${call.token}`,
              ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, body: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}

export interface ConcurrentRun {
  samplesMs: number[];
  elapsedMs: number;
  errors: string[];
}

/**
 * Runs `total` calls of `fn` with `concurrency` workers pulling from one counter.
 * @param fn receives the global call index and the worker index; resolves with that call's latency (ms)
 *   or throws (recorded as an error, the run continues)
 */
export async function runConcurrent(total: number, concurrency: number, fn: (i: number, worker: number) => Promise<number>): Promise<ConcurrentRun> {
  const samplesMs: number[] = [];
  const errors: string[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < total) {
        const i = next++;
        try {
          samplesMs.push(await fn(i, worker));
        } catch (err) {
          errors.push(err instanceof Error ? err.message : String(err));
        }
      }
    }),
  );
  return { samplesMs, elapsedMs: performance.now() - t0, errors };
}
