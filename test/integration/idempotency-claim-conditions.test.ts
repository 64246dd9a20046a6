/**
 * The claim's condition expression evaluated by DynamoDB Local, with explicit times: an abandoned lock of
 * the same request may be taken over after `LOCK_MS`, never by a different request; a record past its TTL
 * (deletion lags) is free again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useTestTable } from '../support/test-table.ts';
import { claimIdempotencyKey, completeIdempotencyKey, IDEMPOTENCY_TTL_SECONDS, LOCK_MS, requestFingerprint } from '#db/idempotency';

const T0 = Date.parse('2030-02-01T12:00:00Z');
const FP = requestFingerprint('POST', '/api/v1/transactions/t1/messages', '{"subject":"a"}');
const OTHER_FP = requestFingerprint('POST', '/api/v1/transactions/t1/messages', '{"subject":"b"}');
const claim = (org: string, key: string, fp: string, now: number, op = 'sendTransactionEmail') => claimIdempotencyKey(org, key, op, fp, now);

beforeAll(async () => {
  await useTestTable();
});

describe('claimIdempotencyKey on DynamoDB Local', () => {
  it('lets the same request take over an abandoned lock only after LOCK_MS', async () => {
    const org = randomUUID();
    expect((await claim(org, 'k', FP, T0)).kind).toBe('execute');

    expect(await claim(org, 'k', FP, T0 + LOCK_MS - 1)).toEqual({ kind: 'in_flight' });
    expect(await claim(org, 'k', OTHER_FP, T0 + LOCK_MS + 1)).toEqual({ kind: 'other_request' });
    expect((await claim(org, 'k', FP, T0 + LOCK_MS + 1)).kind).toBe('execute');
  });

  it('replays a completed record until its ttl, then treats the key as free', async () => {
    const org = randomUUID();
    const first = await claim(org, 'k', FP, T0);
    if (first.kind !== 'execute') throw new Error('expected execute');
    const response = { statusCode: 201, headers: { 'content-type': 'application/json' }, body: '{"id":1}' };
    await completeIdempotencyKey(first.pk, response);

    expect(await claim(org, 'k', FP, T0 + LOCK_MS * 10)).toEqual({ kind: 'replay', response });
    expect(await claim(org, 'k', FP, T0 + (IDEMPOTENCY_TTL_SECONDS - 1) * 1000)).toEqual({ kind: 'replay', response });
    expect((await claim(org, 'k', FP, T0 + (IDEMPOTENCY_TTL_SECONDS + 1) * 1000, 'scheduleTransactionMessage')).kind).toBe('execute');
  });

  it('keeps the same key of two organizations apart', async () => {
    const [a, b] = [randomUUID(), randomUUID()];

    const ca = await claim(a, 'shared-key', FP, T0);
    const cb = await claim(b, 'shared-key', OTHER_FP, T0);

    expect([ca.kind, cb.kind]).toEqual(['execute', 'execute']);
  });
});
