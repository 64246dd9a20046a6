/**
 * A throwaway HTTP receiver on 127.0.0.1 for webhook tests: records every request (method, path, headers,
 * raw body bytes) and answers with a replaceable responder (default 200).
 */
import http from 'node:http';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type Responder = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  received: ReceivedRequest[];
  respondWith(fn: Responder): void;
  close(): Promise<void>;
}

export const status = (code: number, headers: Record<string, string> = {}): Responder => (_req, res) => res.writeHead(code, headers).end();

export async function startReceiver(responder: Responder = status(200)): Promise<Receiver> {
  let respond = responder;
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      respond(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    respondWith: (fn) => { respond = fn; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
