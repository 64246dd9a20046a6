/**
 * What one API request logs and emits, through the real pipeline on DynamoDB Local (issue 8, ../shared/STYLE.md §13): JSON
 * lines that carry `orgId` and `operationId` once known, one access line per request (status, latency, error
 * code), one EMF document with `Requests` and `Latency` (`RateLimited`, `ServerErrors` when they apply) whose only
 * dimension is `service`, the operation and status class riding along as properties (searchable in Logs Insights,
 * no custom metric each), keys that never leak into the next invocation, and concurrent local invocations kept apart.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { useTestTable } from '../support/test-table.ts';
import { captureTelemetry, metricNames, type LogLine, type Telemetry } from '../support/telemetry.ts';
import { createOrganization } from '#db/orgs';
import { RATE_LIMITS } from '#db/api-keys';
import { groupHandler } from '#http/pipeline';
import { plannedOperation, type RegisteredOperation } from '#api/operation';
import getHealth from '#functions/meta/get-health';
import deleteDocument from '#functions/documents/delete-document';
import sendTransactionEmail from '#functions/messaging/send-transaction-email';
import { logger } from '#observability/powertools';
import { setClock } from '#ports/clock';
import { invokeLocally } from '#lib/local/invoke';
import { localContext } from '#lib/local/api-event';

vi.hoisted(() => Object.assign(process.env, { POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'false' }));

/** What the fake `getHealth` does: log a line from inside the handler, optionally wait, optionally fail. */
const behaviour: { gate?: Promise<void>; fail?: boolean } = {};

const ops: RegisteredOperation[] = [
  {
    ...getHealth,
    group: 'meta',
    handler: async () => {
      logger.info('inside handler');
      if (behaviour.gate) await behaviour.gate;
      logger.info('handler done');
      if (behaviour.fail) throw new Error('disk on fire at /var/secret');
      return { body: { ok: true } };
    },
  },
  { ...deleteDocument, group: 'meta', handler: async () => ({ body: { deleted: true } }) },
  { ...sendTransactionEmail, group: 'meta', handler: async () => ({ statusCode: 201, body: { messageId: randomUUID() } }) },
  { ...plannedOperation({ operationId: 'getPlannedThing', method: 'GET', path: '/api/v1/planned-thing', access: 'read', summary: 'A planned operation.', planned: 'a later issue', schemas: () => ({}) }), group: 'meta' },
];
const handler = groupHandler('meta', ops);

type Org = Awaited<ReturnType<typeof createOrganization>>;
let org: Org;
let other: Org;
let t: Telemetry;

function event(method: 'GET' | 'DELETE' | 'POST', path: string, routeKey: string, bearer?: string): APIGatewayProxyEventV2 {
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    pathParameters: routeKey.includes('{documentId}') ? { documentId: path.split('/').pop()! } : undefined,
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: false,
  };
}
const health = (bearer?: string) => event('GET', '/api/v1/health', 'GET /api/v1/health', bearer);
const del = (bearer: string) => {
  const id = randomUUID();
  return event('DELETE', `/api/v1/documents/${id}`, 'DELETE /api/v1/documents/{documentId}', bearer);
};
const invoke = async (ev: APIGatewayProxyEventV2, requestId = randomUUID()) =>
  (await handler(ev, localContext('test-meta', requestId))) as APIGatewayProxyStructuredResultV2;
const accessLines = () => t.logs().filter((l) => l.message === 'request');

beforeAll(async () => {
  await useTestTable();
  [org, other] = await Promise.all([
    createOrganization({ name: 'Telemetry Realty', ownerEmail: 'owner@telemetry.test' }),
    createOrganization({ name: 'Other Realty', ownerEmail: 'owner@other-telemetry.test' }),
  ]);
});
beforeEach(() => {
  behaviour.gate = undefined;
  behaviour.fail = false;
  t = captureTelemetry();
});
afterEach(() => {
  t.restore();
  setClock();
  // Whatever the status class: dimension `service` only (one custom metric per name and function, not per operation).
  for (const doc of t.metrics()) expect(doc._aws.CloudWatchMetrics.map((m) => m.Dimensions)).toEqual([[['service']]]);
});
afterAll(() => setClock());

describe('one successful request', () => {
  it('logs JSON lines that carry orgId and operationId, and one access line with status and latency', async () => {
    const requestId = randomUUID();
    const res = await invoke(health(org.keys.read), requestId);

    expect(res.statusCode).toBe(200);
    const logs = t.logs();
    expect(logs.map((l) => l.message)).toEqual(['inside handler', 'handler done', 'request']);
    for (const line of logs) {
      expect(line).toMatchObject({ orgId: org.orgId, operationId: 'getHealth', service: 'transaction-coordination', function_request_id: requestId });
    }
    const [access] = accessLines();
    expect(access).toMatchObject({ level: 'INFO', requestId, method: 'GET', route: 'GET /api/v1/health', status: 200 });
    expect(typeof access.latencyMs).toBe('number');
    expect(access.latencyMs as number).toBeGreaterThanOrEqual(0);
    expect(access).not.toHaveProperty('errorCode');
  });

  it('emits one EMF document: Requests and Latency by service, with operation and status class as properties', async () => {
    await invoke(health(org.keys.read));

    const docs = t.metrics();
    expect(docs).toHaveLength(1);
    const [doc] = docs;
    expect(doc._aws.CloudWatchMetrics[0].Namespace).toBe('TransactionCoordination');
    expect(doc._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
    expect(metricNames(doc)).toEqual(['Requests', 'Latency']);
    expect(doc).toMatchObject({ service: 'transaction-coordination', operation: 'getHealth', statusClass: '2xx', Requests: 1 });
    expect(doc._aws.CloudWatchMetrics[0].Metrics).toContainEqual({ Name: 'Latency', Unit: 'Milliseconds' });
  });
});

describe('failures', () => {
  it('a 401 logs its access line with the error code and no orgId, and counts a 4xx', async () => {
    await invoke(health('mcp_at_not-a-real-key'));

    const [access] = accessLines();
    expect(access).toMatchObject({ operationId: 'getHealth', status: 401, errorCode: 'unauthorized' });
    expect(access).not.toHaveProperty('orgId');
    expect(t.metrics()[0]).toMatchObject({ operation: 'getHealth', statusClass: '4xx', Requests: 1 });
  });

  it('an unmatched route is counted under operation "unmatched"', async () => {
    await invoke(event('GET', '/api/v1/nowhere', '$default', org.keys.read));

    expect(accessLines()[0]).toMatchObject({ status: 404, errorCode: 'not_found', route: '$default' });
    expect(accessLines()[0]).not.toHaveProperty('operationId');
    expect(t.metrics()[0]).toMatchObject({ operation: 'unmatched', statusClass: '4xx' });
  });

  it('an unexpected error is logged at ERROR with the request id and stack, and counted as ServerErrors', async () => {
    behaviour.fail = true;
    const requestId = randomUUID();
    const res = await invoke(health(org.keys.read), requestId);

    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('disk on fire');
    const error = t.logs().find((l) => l.level === 'ERROR')!;
    expect(error).toMatchObject({ message: 'unexpected error', requestId, orgId: org.orgId, operationId: 'getHealth' });
    expect(error.error).toMatchObject({ name: 'Error', message: 'disk on fire at /var/secret' });
    expect(String((error.error as { stack?: string }).stack)).toContain('api-telemetry.test.ts');
    expect(accessLines()[0]).toMatchObject({ status: 500, errorCode: 'internal_error' });
    const [doc] = t.metrics();
    expect(metricNames(doc)).toEqual(['Requests', 'Latency', 'ServerErrors']);
    expect(doc).toMatchObject({ statusClass: '5xx', ServerErrors: 1 });
  });

  it('a planned operation\'s 501 is counted as NotImplemented, not ServerErrors (it is not a fault)', async () => {
    const res = await invoke(event('GET', '/api/v1/planned-thing', 'GET /api/v1/planned-thing', org.keys.read));

    expect(res.statusCode).toBe(501);
    expect(accessLines()[0]).toMatchObject({ status: 501, errorCode: 'not_implemented', operationId: 'getPlannedThing' });
    const [doc] = t.metrics();
    expect(metricNames(doc)).toEqual(['Requests', 'Latency', 'NotImplemented']);
    expect(doc).toMatchObject({ operation: 'getPlannedThing', statusClass: '5xx', NotImplemented: 1 });
  });

  it('the 429 past the write limit is counted as RateLimited', async () => {
    // One instant in a minute no other test used: a clock read from Date.now() would reset the window if the
    // 60 writes crossed a minute boundary on a loaded machine.
    const minute = (Math.floor(Date.now() / 60_000) + 2_000) * 60_000;
    setClock(() => minute);
    for (let i = 0; i < RATE_LIMITS.write; i++) expect((await invoke(del(org.keys.actions))).statusCode).toBe(200);
    t.restore();
    t = captureTelemetry();

    const res = await invoke(del(org.keys.actions));

    expect(res.statusCode).toBe(429);
    expect(accessLines()[0]).toMatchObject({ operationId: 'deleteDocument', orgId: org.orgId, status: 429, errorCode: 'rate_limited', method: 'DELETE' });
    const [doc] = t.metrics();
    expect(metricNames(doc)).toEqual(['Requests', 'Latency', 'RateLimited']);
    expect(doc).toMatchObject({ operation: 'deleteDocument', statusClass: '4xx', RateLimited: 1 });
  });
});

describe('idempotency replay', () => {
  it('a replayed response gets its access line and metrics too (no middleware returns early)', async () => {
    const send = () => {
      const txn = randomUUID();
      const ev = event('POST', `/api/v1/transactions/${txn}/messages`, 'POST /api/v1/transactions/{transactionId}/messages', org.keys.actions);
      return {
        ...ev,
        headers: { ...ev.headers, 'content-type': 'application/json', 'idempotency-key': 'telemetry-replay' },
        pathParameters: { transactionId: txn },
        body: JSON.stringify({ toEmail: 'buyer@example.test', subject: 'Closing', body: 'Friday.' }),
      };
    };
    const first = send();
    await invoke(first);
    const replay = await invoke({ ...first, requestContext: { ...first.requestContext, requestId: randomUUID() } });

    expect(replay.headers?.['Idempotency-Replayed']).toBe('true');
    expect(accessLines().map((l) => [l.operationId, l.status])).toEqual([
      ['sendTransactionEmail', 201],
      ['sendTransactionEmail', 201],
    ]);
    expect(t.metrics().map((d) => d.Requests)).toEqual([1, 1]);
  });
});

describe('isolation', () => {
  it('keys of one invocation never appear on the next', async () => {
    await invoke(health(org.keys.read));
    await invoke(health());

    const [first, second] = accessLines();
    expect(first.orgId).toBe(org.orgId);
    expect(second).toMatchObject({ status: 401, operationId: 'getHealth' });
    expect(second).not.toHaveProperty('orgId');
    expect(t.metrics().map((d) => d.statusClass)).toEqual(['2xx', '4xx']);
  });

  it('concurrent local invocations keep their own keys and metrics (the local runtime per-invocation store)', async () => {
    let open!: () => void;
    behaviour.gate = new Promise<void>((resolve) => (open = resolve));
    const a = invokeLocally(handler, health(org.keys.read), 'test-meta');
    const b = invokeLocally(handler, health(other.keys.read), 'test-meta');
    // Both requests are inside the handler, authenticated, before either finishes.
    await vi.waitFor(() => expect(t.logs().filter((l) => l.message === 'inside handler')).toHaveLength(2));
    open();
    await Promise.all([a, b]);

    const done = t.logs().filter((l) => l.message === 'handler done' || l.message === 'request');
    expect(done).toHaveLength(4);
    const byRequest = new Map<unknown, LogLine[]>();
    for (const l of t.logs()) byRequest.set(l.function_request_id, [...(byRequest.get(l.function_request_id) ?? []), l]);
    expect(byRequest.size).toBe(2);
    const orgsPerRequest = [...byRequest.values()].map((lines) => new Set(lines.map((l) => l.orgId)));
    expect(orgsPerRequest.map((s) => [...s]).sort()).toEqual([[org.orgId], [other.orgId]].sort());
    expect(t.metrics().map((d) => d.Requests)).toEqual([1, 1]);
  });
});
