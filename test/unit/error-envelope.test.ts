/**
 * `toErrorResponse`, the one place an error becomes an HTTP response (spec "Errors"): domain errors map by
 * class and pipeline errors keep their status, code, fields and headers; anything else is a 500 that reveals nothing internal.
 */
import { describe, expect, it } from 'vitest';
import { InsufficientScopeError, NotImplementedError, RateLimitedError, toErrorResponse, UnauthorizedError } from '#http/errors';
import { Conflict, Forbidden, InvalidInput, NotFound, Unavailable } from '#domain/errors';

const parse = (body: string) => JSON.parse(body) as { error: { code: string; message: string; fields?: Record<string, string> } };

describe('toErrorResponse', () => {
  it.each([
    [new UnauthorizedError(), 401, 'unauthorized'],
    [new InsufficientScopeError('actions'), 403, 'insufficient_scope'],
    [new Forbidden('Only the author may delete a comment.'), 403, 'forbidden'],
    [new NotFound('Transaction'), 404, 'not_found'],
    [new Conflict('still running'), 409, 'conflict'],
    [new NotImplementedError('sendTransactionEmail', 'issue 12'), 501, 'not_implemented'],
    [new Unavailable('The extraction could not be started; retry later.'), 503, 'service_unavailable'],
  ])('keeps the status and code of %s', (err, status, code) => {
    const res = toErrorResponse(err);

    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toBe('application/json');
    expect(parse(res.body)).toEqual({ error: { code, message: err.message } });
  });

  it('keeps the fields of a validation error', () => {
    const res = toErrorResponse(new InvalidInput({ 'keyDates[0].dateValue': 'is not a real calendar date' }));

    expect(res.statusCode).toBe(422);
    expect(parse(res.body).error).toEqual({
      code: 'validation_error',
      message: 'The request is invalid.',
      fields: { 'keyDates[0].dateValue': 'is not a real calendar date' },
    });
  });

  it('a clash is a 409 only on an operation marked (IK); elsewhere a 422 whose fields name it (spec "Endpoints", issue 25)', () => {
    const dup = new Conflict('A contact with email a@example.com already exists: c1.', { email: 'another contact of this organization has it (contactId c1)' });
    const ik = toErrorResponse(dup, undefined, { idempotent: true, path: '/api/v1/transactions/{transactionId}/messages' });
    expect(ik.statusCode).toBe(409);
    expect(parse(ik.body).error).toEqual({ code: 'conflict', message: dup.message });

    const plain = toErrorResponse(dup, undefined, { idempotent: false, path: '/api/v1/contacts' });
    expect(plain.statusCode).toBe(422);
    expect(parse(plain.body).error).toEqual({ code: 'validation_error', message: dup.message, fields: { email: 'another contact of this organization has it (contactId c1)' } });

    // A clash that names no field is put on the operation's identifier.
    const busy = toErrorResponse(new Conflict('The transaction kept changing; retry.'), undefined, { idempotent: false, path: '/api/v1/transactions/{transactionId}/status' });
    expect(busy.statusCode).toBe(422);
    expect(parse(busy.body).error.fields).toEqual({ transactionId: 'The transaction kept changing; retry.' });
  });

  it('sends Retry-After: 60 with a 429', () => {
    const res = toErrorResponse(new RateLimitedError('write'));

    expect(res.statusCode).toBe(429);
    expect(res.headers).toEqual({ 'content-type': 'application/json', 'Retry-After': '60' });
    expect(parse(res.body).error.code).toBe('rate_limited');
    expect(parse(res.body).error.message).toContain('write');
  });

  it('turns a plain Error into a 500 internal_error without its message or stack', () => {
    const err = new Error('ECONNREFUSED 10.0.3.7:8000 table test-secret-table');

    const res = toErrorResponse(err, 'req-42');

    expect(res.statusCode).toBe(500);
    const body = parse(res.body);
    expect(body.error.code).toBe('internal_error');
    expect(body.error.message).toContain('req-42');
    expect(body.error.fields).toBeUndefined();
    expect(res.body).not.toContain('ECONNREFUSED');
    expect(res.body).not.toContain('test-secret-table');
    expect(res.body).not.toContain('at ');
  });

  it('treats thrown non-errors (strings, objects) as internal errors too', () => {
    for (const thrown of ['raw string secret', { statusCode: 404, code: 'not_found' }]) {
      const res = toErrorResponse(thrown);
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('secret');
      expect(parse(res.body).error.code).toBe('internal_error');
    }
  });
});
