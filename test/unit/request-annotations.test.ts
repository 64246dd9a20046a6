/**
 * `annotateRequest` (shared/observability/powertools.ts): the request's `orgId` and `operationId` go on every later
 * log line and, with tracing on, become X-Ray annotations of the handler's subsegment. The Tracer is Powertools' own,
 * enabled as in Lambda (`AWS_EXECUTION_ENV` set, tracing not switched off, while it is created), with an X-Ray SDK subsegment as the active
 * (sub)segment; nothing is sent (no segment is closed, so no emitter runs).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { getNamespace, Segment, type Subsegment } from 'aws-xray-sdk-core';
import { captureTelemetry, type Telemetry } from '../support/telemetry.ts';

vi.hoisted(() => Object.assign(process.env, { POWERTOOLS_LOG_LEVEL: 'INFO' }));

const { annotateRequest, logger, tracer: processTracer } = await import('#observability/powertools');

/** A Tracer with tracing on, as inside Lambda (vitest.config.ts switches tracing off for every other test). */
function lambdaTracer(): Tracer {
  const lambdaEnv = { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', POWERTOOLS_TRACE_ENABLED: 'true' };
  const before = Object.fromEntries(Object.keys(lambdaEnv).map((k) => [k, process.env[k]]));
  Object.assign(process.env, lambdaEnv);
  try {
    return new Tracer({ serviceName: 'annotations-test', captureHTTPsRequests: false });
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Runs `act` with `subsegment` as the Tracer's active subsegment (the handler's, as `captureLambdaHandler` sets it). */
function inSubsegment(t: Tracer, subsegment: Subsegment, act: () => void): void {
  getNamespace().run(() => {
    t.setSegment(subsegment);
    act();
  });
}

let telemetry: Telemetry;
beforeEach(() => {
  telemetry = captureTelemetry();
});
afterEach(() => {
  telemetry.restore();
  logger.resetKeys();
});

describe('annotateRequest', () => {
  it('puts orgId and operationId as annotations on the active subsegment', () => {
    const t = lambdaTracer();
    expect(t.isTracingEnabled()).toBe(true);
    const subsegment = new Segment('facade').addNewSubsegment('## handler');

    inSubsegment(t, subsegment, () => annotateRequest({ operationId: 'getTransaction', orgId: 'org_01HX' }, t));

    expect(subsegment.toJSON().annotations).toEqual({ operationId: 'getTransaction', orgId: 'org_01HX' });
  });

  it('learned in two steps (route, then credential), both end up annotated; empty keys are skipped', () => {
    const t = lambdaTracer();
    const subsegment = new Segment('facade').addNewSubsegment('## handler');

    inSubsegment(t, subsegment, () => {
      annotateRequest({ operationId: 'listTasks' }, t);
      annotateRequest({ orgId: 'org_02' }, t);
      annotateRequest({ orgId: '' }, t);
    });

    expect(subsegment.toJSON().annotations).toEqual({ operationId: 'listTasks', orgId: 'org_02' });
  });

  it('appends the keys to later log lines, and tracing off (tests, local runtime) only logs', () => {
    expect(processTracer).toBeUndefined();

    annotateRequest({ orgId: 'org_03', operationId: 'createTask' });
    logger.info('after');

    const line = telemetry.logs().find((l) => l.message === 'after');
    expect(line).toMatchObject({ orgId: 'org_03', operationId: 'createTask' });
  });
});
