/**
 * The assembly runtime's AWS endpoint: every AWS SDK call of every deployed function arrives here
 * (`AWS_ENDPOINT_URL`), signed with SigV4. The gateway reads who calls (the session token names the function,
 * lib/local/assembly/function-pool.ts), which service (the credential scope) and which action on which resource
 * (lib/local/assembly/call-describer.ts), records it as an `AwsCall` for the offline IAM evaluation, and hands the
 * request to a backend: DynamoDB Local, s3rver and local-aws-sqs are forwarded to as they are; the other services
 * are small emulators (lib/local/assembly/emulators/).
 */
import http from 'node:http';
import { functionOfSessionToken } from './function-pool.ts';

/** A request as the gateway and the emulators see it. */
export interface GatewayRequest {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** SigV4 signing name: `dynamodb`, `s3`, `sqs`, `states`, `textract`, `ses`, `scheduler`, `kms`, `sns`, `sms-voice`, … */
  service: string;
  /** `X-Amz-Target`'s operation (JSON protocols), when present. */
  target?: string;
}

/** What a backend answers. */
export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

export type Backend = (req: GatewayRequest) => Promise<GatewayResponse>;

/** One AWS API call, in IAM's terms. */
export interface AwsCall {
  /** Logical id of the calling function, or of the role a service assumed (e.g. the state machine's). */
  caller: string;
  /** `function` for a function's execution role; `role` for a role a service assumes; `service` for a service principal. */
  callerKind: 'function' | 'role' | 'service';
  /** IAM action, e.g. `dynamodb:PutItem`. */
  action: string;
  /** Resource ARN in the deployed naming, or `*`. */
  resource: string;
  /** Condition keys known at the call (e.g. `kms:ViaService`, `iam:PassedToService`). */
  context?: Record<string, string>;
}

/** Describes a request as IAM calls (several: a `TransactWriteItems` over two tables, S3 with SSE-KMS). */
export type CallDescriber = (req: GatewayRequest) => Array<Omit<AwsCall, 'caller' | 'callerKind'>>;

export interface AwsGateway {
  endpoint: string;
  /** Every call recorded so far, in order. */
  calls: AwsCall[];
  /** Records a call made by the runtime on behalf of a service (event-source mappings, Step Functions, SES). */
  record(call: AwsCall): void;
  close(): Promise<void>;
}

/**
 * Starts the gateway on 127.0.0.1.
 * @param backends by signing name; a service without one answers 501 `UnknownOperationException`
 * @param describe maps a request to its IAM calls (default lib/local/assembly/call-describer.ts with `names`)
 */
export async function startAwsGateway(opts: { backends: Record<string, Backend>; describe: CallDescriber }): Promise<AwsGateway> {
  const calls: AwsCall[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const scope = credentialScope(req.headers.authorization, url);
      const target = String(req.headers['x-amz-target'] ?? '').split('.').pop() || undefined;
      const greq: GatewayRequest = { method: req.method ?? 'GET', url, headers: req.headers, body: Buffer.concat(chunks), service: scope?.service ?? 's3', target };
      const token = String(req.headers['x-amz-security-token'] ?? url.searchParams.get('X-Amz-Security-Token') ?? '');
      const caller = functionOfSessionToken(token);
      try {
        if (caller) for (const c of opts.describe(greq)) calls.push({ caller, callerKind: 'function', ...c });
        const backend = opts.backends[greq.service];
        const out = backend
          ? await backend(greq)
          : { status: 501, headers: { 'content-type': 'application/x-amz-json-1.1' }, body: JSON.stringify({ __type: 'UnknownOperationException', message: `${greq.service} is not emulated` }) };
        res.writeHead(out.status, out.headers);
        res.end(out.body);
      } catch (err) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ __type: 'InternalFailure', message: err instanceof Error ? err.message : String(err) }));
      }
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls,
    record: (call) => calls.push(call),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The SigV4 credential scope (`AKID/date/region/service/aws4_request`) of a header- or query-signed request. */
function credentialScope(authorization: string | undefined, url: URL): { region: string; service: string } | undefined {
  const credential = /Credential=([^,\s]+)/.exec(authorization ?? '')?.[1] ?? url.searchParams.get('X-Amz-Credential') ?? '';
  const parts = credential.split('/');
  return parts.length >= 5 ? { region: parts[2]!, service: parts[3]! } : undefined;
}

/**
 * A backend that forwards the request as it is to `endpoint` (DynamoDB Local, s3rver, local-aws-sqs), optionally
 * rewriting the body first (e.g. SQS queue URLs).
 */
export function forwardTo(endpoint: string, rewrite?: (body: Buffer, req: GatewayRequest) => Buffer): Backend {
  const base = new URL(endpoint);
  return (req) =>
    new Promise((resolve, reject) => {
      const body = rewrite ? rewrite(req.body, req) : req.body;
      const headers = { ...req.headers, host: base.host, 'content-length': String(body.length) };
      delete headers['transfer-encoding'];
      const out = http.request({ host: base.hostname, port: base.port, method: req.method, path: req.url.pathname + req.url.search, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const h: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && k !== 'transfer-encoding' && k !== 'connection') h[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode ?? 500, headers: h, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      });
      out.on('error', reject);
      out.end(body);
    });
}

/** A JSON-protocol answer (`application/x-amz-json-1.x`). */
export const jsonReply = (body: unknown, status = 200): GatewayResponse => ({ status, headers: { 'content-type': 'application/x-amz-json-1.1' }, body: JSON.stringify(body) });

/** A JSON-protocol error (`__type` is what the SDK maps to an exception class). */
export const jsonError = (type: string, message: string, status = 400): GatewayResponse => ({
  status,
  headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': type },
  body: JSON.stringify({ __type: type, message }),
});

