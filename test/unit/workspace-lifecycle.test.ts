/**
 * Workspace lifecycle rules and adapters without a network: the freeze rule, the reported export state, export
 * record redaction, and the exact AWS commands of the purge's batch deletes and S3 prefix deletes
 * (aws-sdk-client-mock).
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { assertWritable, reportedExportState, utcSecondsAfter, WorkspaceFrozen } from '#domain/workspace-lifecycle';
import { Conflict } from '#domain/errors';
import { exportRecord } from '#use-cases/workspace-export';
import { DELETE_CONCURRENCY, deleteItems } from '#db/org-items';
import { deleteKeys, listKeys, orgObjectPrefixes, resetBlobStore } from '#ports/blob-store';

const s3Mock = mockClient(S3Client);
const ddbMock = mockClient(DynamoDBDocumentClient);
beforeEach(() => {
  s3Mock.reset();
  ddbMock.reset();
  resetBlobStore();
  process.env.DOCUMENTS_BUCKET = 'docs';
  process.env.TABLE_NAME = 'tbl';
});
afterAll(() => {
  s3Mock.restore();
  ddbMock.restore();
});

describe('freeze rule', () => {
  const due = '2031-01-08T10:00:00Z';
  it('refuses a write while frozen with a conflict naming the deletion and the cancel operation', () => {
    const err = (() => {
      try {
        assertWritable(due, { method: 'POST', whileFrozen: false });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(WorkspaceFrozen);
    expect(err).toBeInstanceOf(Conflict);
    expect((err as Error).message).toContain(due);
    expect((err as Error).message).toContain('/api/v1/account/deletion/cancel');
  });
  it('lets reads, whileFrozen operations and unfrozen workspaces through', () => {
    expect(() => assertWritable(due, { method: 'GET', whileFrozen: false })).not.toThrow();
    expect(() => assertWritable(due, { method: 'POST', whileFrozen: true })).not.toThrow();
    expect(() => assertWritable(undefined, { method: 'DELETE', whileFrozen: false })).not.toThrow();
  });
});

describe('schedule times', () => {
  it('cuts to the whole second in UTC, as the scheduler\'s at() and as ISO 8601', () => {
    expect(utcSecondsAfter(new Date('2026-11-27T23:59:30.999Z'), 7 * 86_400 + 45)).toEqual({ at: '2026-12-05T00:00:15', iso: '2026-12-05T00:00:15Z' });
  });
});

describe('export state and records', () => {
  it('reports expired only for a completed export past its expiry', () => {
    const at = new Date('2031-01-02T00:00:00Z');
    expect(reportedExportState('completed', '2031-01-01T23:59:59Z', at)).toBe('expired');
    expect(reportedExportState('completed', '2031-01-02T00:00:01Z', at)).toBe('completed');
    expect(reportedExportState('building', null, at)).toBe('building');
  });
  it('drops storage keys and counters, redacts secrets, keeps the rest', () => {
    const r = exportRecord({ PK: 'x', SK: 'y', GSI1PK: 'a', GSI3SK: 'b', ttl: 1, rlWin: 3, op_listTasks: 2, id: 'w1', secret: 'whsec_abc', replyToken: 't', url: 'https://h', note: null, passwordSecretArn: null });
    expect(r).toEqual({ id: 'w1', secret: '[redacted]', replyToken: '[redacted]', url: 'https://h', note: null, passwordSecretArn: null });
  });
});

describe('purge adapters', () => {
  it('deletes items 25 per BatchWriteItem and retries unprocessed ones', async () => {
    const keys = Array.from({ length: 30 }, (_, i) => ({ PK: `P${i}`, SK: 'S' }));
    ddbMock
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { tbl: [{ DeleteRequest: { Key: { PK: 'P3', SK: 'S' } } }] } })
      .resolves({});
    expect(await deleteItems(keys)).toBe(30);
    const calls = ddbMock.commandCalls(BatchWriteCommand).map((c) => c.args[0].input.RequestItems!.tbl.length);
    expect(calls.sort((a, b) => a - b)).toEqual([1, 5, 25]);
    expect(ddbMock.commandCalls(BatchWriteCommand).at(-1)!.args[0].input.RequestItems!.tbl).toEqual([{ DeleteRequest: { Key: { PK: 'P3', SK: 'S' } } }]);
    expect(ddbMock.commandCalls(BatchWriteCommand)[0].args[0].input.RequestItems!.tbl.every((r) => r.DeleteRequest && !r.PutRequest)).toBe(true);
  });

  it(`keeps at most DELETE_CONCURRENCY (${DELETE_CONCURRENCY}) BatchWriteItem calls in flight, and more than one`, async () => {
    let inFlight = 0;
    let most = 0;
    ddbMock.on(BatchWriteCommand).callsFake(async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return {};
    });
    const keys = Array.from({ length: 25 * DELETE_CONCURRENCY * 3 }, (_, i) => ({ PK: `P${i}`, SK: 'S' }));
    expect(await deleteItems(keys)).toBe(keys.length);
    expect(ddbMock.commandCalls(BatchWriteCommand)).toHaveLength(DELETE_CONCURRENCY * 3);
    expect(most).toBe(DELETE_CONCURRENCY);
  });

  it('lists every page of a prefix and deletes 1,000 keys per DeleteObjects', async () => {
    s3Mock
      .on(ListObjectsV2Command)
      .resolvesOnce({ Contents: Array.from({ length: 1000 }, (_, i) => ({ Key: `org/o1/k${i}` })), IsTruncated: true, NextContinuationToken: 'n' })
      .resolves({ Contents: [{ Key: 'org/o1/last' }], IsTruncated: false });
    s3Mock.on(DeleteObjectsCommand).resolves({});
    const keys = await listKeys('org/o1/');
    expect(keys).toHaveLength(1001);
    expect(s3Mock).toHaveReceivedCommandWith(ListObjectsV2Command, { Bucket: 'docs', Prefix: 'org/o1/', ContinuationToken: 'n' });
    await deleteKeys(keys);
    expect(s3Mock.commandCalls(DeleteObjectsCommand).map((c) => c.args[0].input.Delete!.Objects!.length)).toEqual([1000, 1]);
  });

  it('fails a purge step when S3 reports a key it did not delete', async () => {
    s3Mock.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'org/o1/x', Code: 'AccessDenied' }] });
    await expect(deleteKeys(['org/o1/x'])).rejects.toThrow('org/o1/x');
  });

  it("names only the organization's own prefixes", () => {
    expect(orgObjectPrefixes('o1')).toEqual(['org/o1/', 'ocr/o1/', 'exports/o1/', 'reports/o1/']);
    expect(orgObjectPrefixes('o1').some((p) => 'org/o10/a'.startsWith(p))).toBe(false);
  });
});
