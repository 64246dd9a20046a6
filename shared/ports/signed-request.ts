/**
 * AWS calls without the service's SDK client, for a function that makes one or two of them and whose budget the
 * client (its schemas, error classes and endpoint rules, 20–70 KB minified) would break (issue 24): a POST signed
 * with SigV4 by the SDK's own `SignatureV4` and sent with `fetch` (`sendSignedPost`, the Lambda `Invoke` of
 * shared/ports/report-builder.ts), and over it one operation of an AWS JSON 1.0/1.1 protocol service with the SDK's
 * retries (`callAwsJson`, Step Functions `StartExecution` in shared/ports/workflow.ts). S3's object requests are
 * presigned instead (shared/ports/s3-object-requests.ts).
 *
 * Credentials: the environment's (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`: Lambda's role),
 * read at each signing. With tracing on, Powertools' Tracer records each `fetch` as an X-Ray subsegment, as it did
 * the SDK client's calls. Error codes and retry classes are the SDK's own (`@smithy/core`, already in every bundle
 * through the DynamoDB client).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { loadJsonRpcErrorCode } from '@smithy/core/protocols';
import { isThrottlingError, isTransientError, Retry } from '@smithy/core/retry';
import { Sha256 } from '#ports/s3-object-requests';

/** A POST to sign and send. */
export interface SignedPost {
  /** SigV4 signing name: `lambda`, `states`, … */
  service: string;
  region: string;
  /** Where to send it (`serviceEndpoint`); a path of its own is kept in front of `path`. */
  endpoint: URL;
  /** The operation's path, percent-encoded (`/` for JSON protocols). */
  path: string;
  /** Headers to send, every one signed (lower-case names); `host`, `x-amz-date` and `x-amz-security-token` are added. */
  headers: Record<string, string>;
  body: string;
  /** Time limit of the request, ms (the answer's headers included). */
  timeoutMs: number;
}

/**
 * The regional endpoint of a service: `https://<prefix>.<region>.amazonaws.com` (`.amazonaws.com.cn` in the China
 * regions), or `override` (an `AWS_ENDPOINT_URL_*` variable, a stub) when it is set.
 * @throws TypeError when `override` is not a URL
 */
export function serviceEndpoint(prefix: string, region: string, override?: string): URL {
  return new URL(override ?? `https://${prefix}.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`);
}

/**
 * Signs `post` (SigV4, header authorization, the payload's SHA-256 signed) and sends it once.
 * @returns fetch's answer, whatever its status (the caller reads the body)
 * @throws CredentialsProviderError without credentials in the environment; fetch's error on a network failure or
 *   `TimeoutError` past `timeoutMs`
 */
export async function sendSignedPost(post: SignedPost): Promise<Response> {
  const { endpoint, body } = post;
  const signer = new SignatureV4({ service: post.service, region: post.region, credentials: fromEnv(), sha256: Sha256 });
  const signed = await signer.sign({
    method: 'POST',
    protocol: endpoint.protocol,
    hostname: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : undefined,
    path: `${endpoint.pathname.replace(/\/+$/, '')}${post.path}`,
    query: {},
    headers: { host: endpoint.host, ...post.headers },
    body,
  });
  const { host: _host, ...headers } = signed.headers;
  return fetch(`${endpoint.protocol}//${endpoint.host}${signed.path}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(post.timeoutMs) });
}

/**
 * An AWS service refused a call: `name` is its error type (`ExecutionAlreadyExists`, `AccessDeniedException`,
 * `ThrottlingException`, …), `$metadata.httpStatusCode` the answer's status, as on the SDK's service exceptions.
 */
export class AwsServiceError extends Error {
  readonly $metadata: { httpStatusCode: number };
  constructor(
    override readonly name: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.$metadata = { httpStatusCode: status };
  }
}

/** One operation of an AWS JSON protocol service. */
export interface AwsJsonCall {
  service: string;
  region: string;
  endpoint: URL;
  /** `X-Amz-Target`: `<service target>.<operation>`, e.g. `AWSStepFunctions.StartExecution`. */
  target: string;
  /** The protocol's version: `1.0` (Step Functions, DynamoDB) or `1.1`. */
  version: '1.0' | '1.1';
  /** The operation's input, sent as JSON. */
  input: unknown;
  /** Time limit of one attempt, ms. */
  attemptTimeoutMs: number;
}

/** Attempts per call, as the SDK's standard retry mode. */
export const AWS_JSON_MAX_ATTEMPTS = 3;

/**
 * Calls one operation (`POST /`, `Content-Type: application/x-amz-json-<version>`, `X-Amz-Target`; Smithy's
 * awsJson1_0 / awsJson1_1 protocols) and parses its JSON answer. Retried as the SDK's standard mode does: up to
 * `AWS_JSON_MAX_ATTEMPTS` attempts while the failure is a throttling error (429, `ThrottlingException`, …) or a
 * transient one (500/502/503/504, a reset or refused connection, an attempt's timeout), after a full-jitter delay
 * of random × base × 2^retry ms, base 1,000 ms after throttling and 50 ms otherwise (`Retry` of `@smithy/core`).
 * Each attempt is signed again (a fresh `x-amz-date`).
 * @returns the answer's JSON object (`{}` for an empty body)
 * @throws AwsServiceError named by the error type (`X-Amzn-ErrorType` or `__type`, namespace and URI stripped) for a
 *   refusal, after the last attempt when it is retryable; fetch's error after the last attempt
 */
export async function callAwsJson<T extends object>(call: AwsJsonCall): Promise<T> {
  const body = JSON.stringify(call.input);
  const headers = { 'content-type': `application/x-amz-json-${call.version}`, 'x-amz-target': call.target };
  for (let retries = 0; ; retries++) {
    try {
      const res = await sendSignedPost({ service: call.service, region: call.region, endpoint: call.endpoint, path: '/', headers, body, timeoutMs: call.attemptTimeoutMs });
      const data = jsonOf(await res.text());
      if (res.ok) return (data ?? {}) as T;
      const type = loadJsonRpcErrorCode({ statusCode: res.status, headers: Object.fromEntries(res.headers) }, data ?? {}) ?? `Http${res.status}`;
      const detail = String(data?.message ?? data?.Message ?? '');
      throw new AwsServiceError(type, res.status, `${call.target}: ${type} (${res.status})${detail ? ` ${detail}` : ''}`);
    } catch (err) {
      const failure = err as Parameters<typeof isTransientError>[0];
      const throttled = isThrottlingError(failure);
      if (retries + 1 >= AWS_JSON_MAX_ATTEMPTS || !(throttled || isTransientError(failure))) throw err;
      await sleep(Math.random() * (throttled ? Retry.throttlingDelay() : Retry.delay()) * 2 ** retries);
    }
  }
}

/** A response body as a JSON object, or null when it is empty or not JSON (a proxy's error page). */
export function jsonOf(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = text ? JSON.parse(text) : null;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
