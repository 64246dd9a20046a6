/**
 * Routing as API Gateway's HTTP API does it: the local router (`createRouter` over every operation) (literal segments beat `{params}`, decoded
 * parameters, undefined for `$default`) and `toApiEvent`, which builds the payload 2.0 event the local
 * runtime hands to a group's handler.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createRouter } from '#lib/local/router';
import { loadOperations } from '#lib/registry';
import { localContext, toApiEvent } from '#lib/local/api-event';

const ID = '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
const matchRoute = createRouter(await loadOperations());

describe('matchRoute', () => {
  it('prefers a literal segment over a {param}: /transactions/resolve is not getTransaction', () => {
    expect(matchRoute('GET', '/api/v1/transactions/resolve')?.op.operationId).toBe('resolveTransactions');
    expect(matchRoute('POST', '/api/v1/tasks/delete')?.op.operationId).toBe('deleteTasks');
  });

  it('extracts and percent-decodes path parameters', () => {
    expect(matchRoute('GET', `/api/v1/transactions/${ID}`)).toMatchObject({ op: { operationId: 'getTransaction' }, pathParameters: { transactionId: ID } });
    expect(matchRoute('PATCH', `/api/v1/transactions/${ID}/key-dates/Option%20Period%2FEnd`)?.pathParameters).toEqual({
      transactionId: ID,
      keyDateType: 'Option Period/End',
    });
    expect(matchRoute('DELETE', `/api/v1/tasks/${ID}/comments/c-1`)?.pathParameters).toEqual({ taskId: ID, commentId: 'c-1' });
  });

  it('keeps a malformed escape as written instead of throwing', () => {
    expect(matchRoute('GET', '/api/v1/transactions/%E0%A4%A')?.pathParameters).toEqual({ transactionId: '%E0%A4%A' });
  });

  it('matches on the method too', () => {
    expect(matchRoute('GET', '/api/v1/transactions')?.op.operationId).toBe('listTransactions');
    expect(matchRoute('POST', '/api/v1/transactions')?.op.operationId).not.toBe('listTransactions');
    expect(matchRoute('DELETE', '/api/v1/transactions')).toBeUndefined();
  });

  it.each(['/api/v1/nope', '/api/v1/transactions/', `/api/v1/transactions/${ID}/extra/segments/here`, '/api/v2/health'])('returns undefined for %s', (path) => {
    expect(matchRoute('GET', path)).toBeUndefined();
  });
});

/** The parts of an IncomingMessage `toApiEvent` reads. */
const request = (method: string, url: string, headers: Record<string, string> = {}) =>
  ({ method, url, headers, socket: { remoteAddress: '10.1.2.3' } }) as unknown as IncomingMessage;

describe('toApiEvent', () => {
  it('sets routeKey, pathParameters, query parameters (repeated ones joined) and the group', () => {
    const { event, group } = toApiEvent(request('get', `/api/v1/transactions/${ID}?page=2&status=a&status=b`, { Authorization: 'Bearer x' }), Buffer.alloc(0), matchRoute);

    expect(group).toBe('transactions');
    expect(event.routeKey).toBe('GET /api/v1/transactions/{transactionId}');
    expect(event.requestContext.routeKey).toBe(event.routeKey);
    expect(event.rawPath).toBe(`/api/v1/transactions/${ID}`);
    expect(event.rawQueryString).toBe('page=2&status=a&status=b');
    expect(event.pathParameters).toEqual({ transactionId: ID });
    expect(event.queryStringParameters).toEqual({ page: '2', status: 'a,b' });
    expect(event.headers.authorization).toBe('Bearer x');
    expect(event.requestContext.http).toMatchObject({ method: 'GET', path: `/api/v1/transactions/${ID}`, sourceIp: '10.1.2.3' });
    expect(event.body).toBeUndefined();
    expect(event.isBase64Encoded).toBe(false);
  });

  it('passes a JSON body as text', () => {
    const { event } = toApiEvent(request('POST', `/api/v1/transactions/${ID}/activity`, { 'content-type': 'application/json' }), Buffer.from('{"type":"note"}'), matchRoute);

    expect(event).toMatchObject({ body: '{"type":"note"}', isBase64Encoded: false });
    expect(event.queryStringParameters).toBeUndefined();
  });

  it('base64-encodes a binary body', () => {
    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0xfe]);

    const { event } = toApiEvent(request('POST', `/api/v1/transactions/${ID}/activity`, { 'content-type': 'application/pdf' }), pdf, matchRoute);

    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body!, 'base64')).toEqual(pdf);
  });

  it('sends an unknown route to $default, served by meta', () => {
    const { event, group } = toApiEvent(request('GET', '/api/v1/does-not-exist'), Buffer.alloc(0), matchRoute);

    expect(event.routeKey).toBe('$default');
    expect(event.pathParameters).toBeUndefined();
    expect(group).toBe('meta');
  });
});

describe('localContext', () => {
  it('carries the request id and a positive remaining time', () => {
    const ctx = localContext('local-tasks', 'req-1');

    expect(ctx).toMatchObject({ functionName: 'local-tasks', awsRequestId: 'req-1' });
    expect(ctx.getRemainingTimeInMillis()).toBeGreaterThan(0);
  });
});
