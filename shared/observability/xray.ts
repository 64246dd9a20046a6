/**
 * The only module that imports `@aws-lambda-powertools/tracer` (and through it aws-xray-sdk-core, ~125 KB
 * minified). powertools.ts imports it dynamically, only where tracing can work. A function whose bundle would
 * exceed its size budget with the X-Ray SDK (those holding the S3 client) is built with this module aliased to
 * lib/bundling/no-xray.ts (`ServiceFunction` `xraySdk: false`).
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';

/** A Tracer for `serviceName` (Powertools reads `POWERTOOLS_TRACER_CAPTURE_*` for the rest). */
export const createTracer = (serviceName: string): Tracer => new Tracer({ serviceName });

export { captureLambdaHandler };
