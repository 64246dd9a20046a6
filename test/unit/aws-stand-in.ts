/**
 * An AWS service stand-in on 127.0.0.1 for the ports that sign their own requests (shared/ports/signed-request.ts:
 * test/unit/workflow-port.test.ts, test/unit/report-builder-port.test.ts): it records every request as received and
 * answers from a queue, in order, the last answer repeating.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the service received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An answer: `body` is sent as JSON with the stand-in's content type unless `headers` names another. */
export interface StandInAnswer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface AwsStandIn {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** Every request so far, in order. */
  seen: RecordedRequest[];
  /** Forgets the requests and sets the answers (at least one). */
  reset(answers: StandInAnswer[]): void;
  close(): Promise<void>;
}

/** Starts a stand-in whose answers default to `contentType` (e.g. `application/x-amz-json-1.0`). */
export async function startAwsStandIn(contentType: string): Promise<AwsStandIn> {
  let answers: StandInAnswer[] = [];
  const seen: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.length > 1 ? answers.shift()! : answers[0];
      res.writeHead(answer.status, { 'content-type': contentType, ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    reset(next) {
      seen.length = 0;
      answers = [...next];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
