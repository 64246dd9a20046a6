/**
 * The candidates of `GET /transactions/resolve` (shared/db/search-index.ts `dealIdsByWords`, shared/db/transactions.ts
 * `findDealsByAddress`): ranked by how many address words found them, and only the best 25 deals read without a status,
 * so the read does not grow with the organization (issue 24, `npm run bench:scale`).
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dealIdsByWords } from '#db/search-index';
import { findDealsByAddress } from '#db/transactions';
import { gsi1 } from '#db/keys';

const ddbMock = mockClient(DynamoDBDocumentClient);
afterAll(() => ddbMock.restore());

/** Answers each word's index query with `idsByWord[word]` (token items carry the deal id). */
function tokens(idsByWord: Record<string, string[]>) {
  ddbMock.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) => {
    const word = Object.keys(idsByWord).find((w) => input.ExpressionAttributeValues[':pk'] === gsi1.dealSearch('o1', w));
    return { Items: (word ? idsByWord[word] : []).map((transactionId) => ({ transactionId })) };
  });
}

/** The deal ids `BatchGetItem` was asked for, in order. */
const readIds = () => ddbMock.commandCalls(BatchGetCommand).flatMap((c) => (Object.values(c.args[0].input.RequestItems!)[0].Keys as { PK: string }[]).map((k) => k.PK.split('#TXN#')[1]));

beforeEach(() => {
  ddbMock.reset();
  process.env.TABLE_NAME = 'tbl';
  ddbMock.on(BatchGetCommand).resolves({ Responses: { tbl: [] } });
});

describe('address resolution candidates', () => {
  it('puts the deals found by more words first, ties in the order found', async () => {
    tokens({ '1207': ['a', 'b', 'c'], live: ['d', 'b', 'a'], oak: ['b', 'e'] });
    expect(await dealIdsByWords('o1', ['1207', 'live', 'oak'], 50)).toEqual(['b', 'a', 'c', 'd', 'e']);
  });

  it('reads only the 25 best candidates without a status, every candidate with one', async () => {
    const street = Array.from({ length: 50 }, (_, i) => `s${i}`);
    const oak = Array.from({ length: 50 }, (_, i) => `o${i}`);
    tokens({ '1207': ['target', 's7'], live: ['s7', ...street.slice(0, 49)], oak: ['target', ...oak.slice(0, 49)] });
    await findDealsByAddress('o1', '1207 Live Oak');
    const read = readIds();
    expect(read).toHaveLength(25);
    expect(read.slice(0, 2).sort()).toEqual(['s7', 'target']);
    ddbMock.resetHistory();
    await findDealsByAddress('o1', '1207 Live Oak', 'Active');
    expect(readIds()).toHaveLength(new Set(['target', 's7', ...street.slice(0, 49), ...oak.slice(0, 49)]).size);
  });
});
