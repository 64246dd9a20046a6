/**
 * S3 object requests without the S3 client: presigned URLs (SigV4 query authentication by
 * `@aws-sdk/s3-request-presigner`'s `S3RequestPresigner`) and the single-object calls the API groups make
 * (GET, PUT, HEAD, DELETE), each sent with `fetch` to a URL presigned for that one request. The S3 client (its XML
 * protocol, schemas of every S3 operation, checksums; about 150 KB minified) stays out of every function that
 * only presigns or makes these calls (issue 24); the workers that list, stream or batch-delete keep it
 * (shared/ports/blob-store.ts).
 *
 * Addressing, as the SDK does it: a custom endpoint (`S3_ENDPOINT` for s3rver; `AWS_ENDPOINT_URL_S3` or
 * `AWS_ENDPOINT_URL` for the assembly runtime's gateway) is addressed path-style, `<endpoint>/<bucket>/<key>`; in
 * AWS a DNS-compatible bucket name without dots is virtual-hosted, `https://<bucket>.s3.<region>.amazonaws.com/<key>`,
 * any other path-style. Credentials: s3rver's pair with `S3_ENDPOINT`, else the environment's (Lambda's role).
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { config } from '#ports/config';

/** s3rver's built-in access key pair (it refuses unknown access keys; it does not verify V4 signatures). */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** Methods of the object requests presigned here. */
export type ObjectMethod = 'GET' | 'PUT' | 'HEAD' | 'DELETE';

/** The SDK operation a method stands for, sent as `x-id` as the SDK does (HEAD has none). */
const OPERATION_IDS: Record<ObjectMethod, string | undefined> = { GET: 'GetObject', PUT: 'PutObject', HEAD: undefined, DELETE: 'DeleteObject' };

/** Validity of a URL presigned for one request this process sends, seconds (covers the retries). */
const REQUEST_URL_SECONDS = 300;
/** Attempts per request (the SDK's standard retry mode: 3), on a 5xx answer or a network error. */
const MAX_ATTEMPTS = 3;
/** Time limit of one attempt, ms (a 3.75 MB inline upload included). */
const ATTEMPT_TIMEOUT_MS = 30_000;

/** Options of `presignObjectUrl`. */
export interface PresignOptions {
  /** Validity in seconds (S3 allows at most 604,800). */
  expiresSeconds: number;
  /** Headers the request will carry, every one signed (lower-case names). */
  headers?: Record<string, string>;
  /** Query parameters, e.g. `response-content-disposition`. */
  query?: Record<string, string>;
  /** The bucket; default the documents bucket (`DOCUMENTS_BUCKET`). */
  bucket?: string;
}

/**
 * A presigned URL of `method` on `key` in the documents bucket: the same URL `getSignedUrl` of the S3 client gives
 * for the matching command (`X-Amz-Content-Sha256=UNSIGNED-PAYLOAD`, `x-id`, every query parameter sorted).
 * @throws ConfigurationError when `DOCUMENTS_BUCKET` is unset; CredentialsProviderError (in AWS) without credentials
 */
export async function presignObjectUrl(method: ObjectMethod, key: string, options: PresignOptions): Promise<string> {
  const target = targetOf(options.bucket ?? config.documentsBucket);
  const operation = OPERATION_IDS[method];
  const headers = { ...options.headers };
  const presigner = new S3RequestPresigner({ credentials: target.credentials, region: target.region, sha256: Sha256 });
  const signed = await presigner.presign(
    {
      method,
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      path: `${target.pathPrefix}/${key.split('/').map(escapeUri).join('/')}`,
      query: { ...options.query, ...(operation ? { 'x-id': operation } : {}) },
      headers,
    },
    // The presigner leaves Content-Type unsigned by default; a header the caller names is signed.
    { expiresIn: options.expiresSeconds, signableHeaders: new Set(Object.keys(headers)) },
  );
  const query = Object.entries(signed.query ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${escapeUri(k)}=${escapeUri(String(v))}`)
    .join('&');
  return `${signed.protocol}//${signed.hostname}${signed.port ? `:${signed.port}` : ''}${signed.path}?${query}`;
}

/** An S3 error answer: `name` is S3's error code (`NoSuchBucket`, `AccessDenied`; `NotFound` for a bodiless 404). */
export class S3RequestError extends Error {
  constructor(
    override readonly name: string,
    /** HTTP status of the answer. */
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Sends one object request to a URL presigned for it, with up to 3 attempts (exponential backoff with full jitter,
 * from 100 ms) on a 5xx answer or a network error, as the SDK's standard retry mode does.
 * @param init.headers sent and signed (lower-case names, e.g. `range` for a GET of some bytes); `content-length` is
 *   signed and left to fetch to send
 * @param init.bucket the bucket (default the documents bucket)
 * @returns the 2xx answer's status, headers and body bytes (the object's for a GET; empty for the others, read so the
 *   connection is reused); for HEAD, undefined when the object does not exist (404)
 * @throws S3RequestError for any other answer (a GET of a missing object: `NoSuchKey`); the network error after the
 *   last attempt
 */
export async function sendObjectRequest(
  method: ObjectMethod,
  key: string,
  init: { body?: Uint8Array; headers?: Record<string, string>; bucket?: string } = {},
): Promise<{ status: number; headers: Headers; body: Uint8Array } | undefined> {
  const url = await presignObjectUrl(method, key, { expiresSeconds: REQUEST_URL_SECONDS, headers: init.headers, bucket: init.bucket });
  const { 'content-length': _length, ...sent } = init.headers ?? {};
  for (let attempt = 1; ; attempt++) {
    let res: Response | undefined;
    try {
      res = await fetch(url, { method, headers: sent, body: init.body, signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS) throw err;
    }
    if (res && (res.status < 500 || attempt >= MAX_ATTEMPTS)) {
      if (res.ok) return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
      if (res.status === 404 && method === 'HEAD') return undefined;
      throw await errorOf(res, method, key);
    }
    await res?.body?.cancel();
    await sleep(Math.random() * 100 * 2 ** (attempt - 1));
  }
}

/** The S3RequestError of a refused request (S3's XML `<Error><Code>…</Code><Message>…</Message></Error>`). */
async function errorOf(res: Response, method: string, key: string): Promise<S3RequestError> {
  const xml = method === 'HEAD' ? '' : await res.text();
  const code = /<Code>([^<]+)<\/Code>/.exec(xml)?.[1] ?? (res.status === 404 ? 'NotFound' : res.status === 403 ? 'Forbidden' : `Http${res.status}`);
  const message = /<Message>([^<]*)<\/Message>/.exec(xml)?.[1] ?? res.statusText;
  return new S3RequestError(code, res.status, `S3 ${method} ${key}: ${code} (${res.status}) ${message}`.trim());
}

interface Target {
  protocol: string;
  hostname: string;
  port?: number;
  /** `/<bucket>` path-style, `` virtual-hosted (with an endpoint's own path in front). */
  pathPrefix: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | ReturnType<typeof fromEnv>;
}

/** Where the documents bucket is addressed, and with which credentials (see the module comment). */
function targetOf(bucket: string): Target {
  const local = config.s3Endpoint;
  const custom = local ?? config.awsEndpointUrlS3;
  const region = config.awsRegion ?? 'us-east-1';
  const credentials = local ? { ...LOCAL_S3_CREDENTIALS } : fromEnv();
  if (custom) {
    const url = new URL(custom);
    return {
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      pathPrefix: `${url.pathname.replace(/\/+$/, '')}/${bucket}`,
      region,
      credentials,
    };
  }
  const suffix = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  // S3's virtual-hostable names (no dots over TLS, no IP-address look-alikes): else path-style, as the SDK does.
  const hostable = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(bucket);
  return hostable
    ? { protocol: 'https:', hostname: `${bucket}.s3.${region}.${suffix}`, pathPrefix: '', region, credentials }
    : { protocol: 'https:', hostname: `s3.${region}.${suffix}`, pathPrefix: `/${bucket}`, region, credentials };
}

/** RFC 3986 percent-encoding, as SigV4 canonicalizes (`encodeURIComponent` plus `!'()*`). */
function escapeUri(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * SHA-256, or HMAC-SHA-256 with a secret, in the `Checksum` shape SigV4 signers construct (`new sha256(secret?)`);
 * the Lambda invocations of shared/ports/report-builder.ts sign with it too.
 */
export class Sha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = this.fresh();
  }
  update(data: string | Uint8Array): void {
    this.hash.update(data);
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    const s = this.secret;
    if (s === undefined) return createHash('sha256');
    const key = typeof s === 'string' ? s : ArrayBuffer.isView(s) ? Buffer.from(s.buffer, s.byteOffset, s.byteLength) : Buffer.from(s);
    return createHmac('sha256', key);
  }
}
