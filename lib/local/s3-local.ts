/**
 * Runs s3rver (an S3-compatible server, files on disk) on loopback with the documents bucket, and turns
 * its `event` emitter into the S3 notification AWS would send: every `ObjectCreated:*` event is passed to
 * `onObjectCreated` as an `S3Event` (the shape `aws-lambda` types), as an S3 → Lambda notification would.
 *
 * s3rver accepts only its built-in access key (`S3RVER`, see `LOCAL_S3_CREDENTIALS`) and does not verify
 * V4 signatures, but it does enforce presigned-URL expiry (`X-Amz-Date` + `X-Amz-Expires`): an expired URL
 * is refused with 403 `AccessDenied`.
 */
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import type { S3Event } from 'aws-lambda';
import { freePort } from '#lib/local/dynamodb-local';
import { logger } from '#observability/powertools';
import { invokeLocally } from '#lib/local/invoke';

/** The bucket the local runtime and tests use unless told otherwise. */
export const LOCAL_DOCUMENTS_BUCKET = 'tcs-documents';

/** The part of s3rver's API used here (the package ships no types). */
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  on(event: 'event', listener: (event: S3Event) => void): void;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

/** Options of `startLocalS3`. */
export interface LocalS3Options {
  /** Where objects are stored (created when missing). */
  directory: string;
  /** Bucket created at start (default `tcs-documents`). */
  bucket?: string;
  /** More buckets created at start (the assembly runtime creates every bucket of the template). */
  extraBuckets?: string[];
  /** TCP port on 127.0.0.1; omitted = a free one. */
  port?: number;
  /**
   * Called for each `ObjectCreated:*` notification, after the upload's response is sent. Errors are
   * logged, never thrown into s3rver.
   */
  onObjectCreated?: (event: S3Event) => Promise<unknown> | unknown;
}

/** A running local S3 (s3rver). */
export interface LocalS3 {
  /** `http://127.0.0.1:<port>`: the S3 endpoint (`S3_ENDPOINT`). */
  endpoint: string;
  /** The documents bucket (`DOCUMENTS_BUCKET`). */
  bucket: string;
  /** Resolves when every `onObjectCreated` call started so far has finished. */
  idle(): Promise<void>;
  /**
   * Calls `listener` for every object stored or removed, by any client (`ObjectCreated:Put`, `ObjectRemoved:Delete`…,
   * and the key), before s3rver answers the request that made the change.
   */
  onObjectEvent(listener: (eventName: string, key: string) => void): void;
  /** Waits for running notification handlers, then closes the server. Stored objects stay on disk. */
  stop(): Promise<void>;
}

/**
 * Starts s3rver on 127.0.0.1 with `bucket`.
 * @returns endpoint, bucket, `idle()` and `stop()`
 * @throws Error when the port is taken
 */
export async function startLocalS3(opts: LocalS3Options): Promise<LocalS3> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
  const bucket = opts.bucket ?? LOCAL_DOCUMENTS_BUCKET;
  const port = opts.port ?? (await freePort());
  mkdirSync(opts.directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    directory: opts.directory,
    silent: true,
    vhostBuckets: false,
    configureBuckets: [bucket, ...(opts.extraBuckets ?? [])].map((name) => ({ name })),
  });
  const inFlight = new Set<Promise<void>>();
  const listeners: ((eventName: string, key: string) => void)[] = [];
  server.on('event', (event) => {
    for (const r of event.Records ?? []) for (const l of listeners) l(r.eventName ?? '?', r.s3.object.key);
    const created = (event.Records ?? []).filter((r) => r.eventName?.startsWith('ObjectCreated:'));
    if (!created.length || !opts.onObjectCreated) return;
    // S3 URL-encodes object keys in notifications ("red flower.pdf" → "red+flower.pdf"); s3rver does not.
    const notification: S3Event = { Records: created.map((r) => ({ ...r, s3: { ...r.s3, object: { ...r.s3.object, key: encodeS3EventKey(r.s3.object.key) } } })) };
    // s3rver emits before it answers the upload; run the handler after, as S3's asynchronous delivery does.
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => opts.onObjectCreated!(notification))
      .then(
        () => undefined,
        (err: unknown) => logger.error('ObjectCreated handler failed', { source: 's3-local', error: err }),
      )
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  });
  await server.run();
  const idle = async () => {
    while (inFlight.size) await Promise.all([...inFlight]);
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    idle,
    onObjectEvent: (listener) => void listeners.push(listener),
    async stop() {
      await idle();
      await server.close();
    },
  };
}

/** A key as S3 notifications carry it: each path segment URL-encoded, spaces as `+`. */
export const encodeS3EventKey = (key: string): string =>
  key
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/%20/g, '+'))
    .join('/');

let uploadedHandler: Promise<(event: S3Event) => Promise<unknown>> | undefined;

/**
 * Delivers an S3 notification to the real `functions/document-uploaded` handler (loaded on first use), as
 * the S3 → Lambda notification does in AWS: pass it as `onObjectCreated`.
 */
export async function invokeDocumentUploaded(event: S3Event): Promise<unknown> {
  const specifier = '#functions/document-uploaded/handler';
  uploadedHandler ??= import(specifier).then((m) => m.handler).catch((err) => ((uploadedHandler = undefined), Promise.reject(err)));
  return invokeLocally(await uploadedHandler, event, 'document-uploaded');
}
