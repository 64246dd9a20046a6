/**
 * Bundling alias for `#observability/xray` in functions built with `xraySdk: false` (lib/service-function.ts):
 * those that hold the S3 client, where the X-Ray SDK would take the bundle past 500 KB. Such a function also
 * gets `POWERTOOLS_TRACE_ENABLED=false`, so nothing calls this; Lambda's active tracing still records its
 * invocation segment, without per-call SDK subsegments. Used only by esbuild (lib/service-function.ts and
 * bench/bundles.ts).
 */
import type { captureLambdaHandler as CaptureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { Tracer } from '@aws-lambda-powertools/tracer';

const absent = (): never => {
  throw new Error('This function was bundled without the X-Ray SDK (xraySdk: false); set POWERTOOLS_TRACE_ENABLED=false.');
};

/** Same shape as shared/observability/xray.ts; throws, since a function without the SDK must not trace. */
export const createTracer: (serviceName: string) => Tracer = absent;
export const captureLambdaHandler: typeof CaptureLambdaHandler = absent;
