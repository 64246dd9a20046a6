/**
 * The candidates of `GET /transactions/resolve` (shared/db/search-index.ts `dealIdsByWords`, shared/db/transactions.ts
 * `findDealsByAddress`): ranked by how many of the query's words each candidate's own words match (the token items
 * carry them), and only the best 25 deals read without a status, so the read does not grow with the organization
 * (issue 24, `npm run bench:scale`).
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dealIdsByWords } from '#db/search-index';
import { findDealsByAddress } from '#db/transactions';
import { gsi1 } from '#db/keys';

const ddbMock = mockClient(DynamoDBDocumentClient);
afterAll(() => ddbMock.restore());

/** A deal's token item as the index holds it: its id and its words. */
const token = (transactionId: string, address: string) => ({ transactionId, words: address.toLowerCase().split(' ').join(' ') });

/** Answers each lookup word's index query with `byWord[word]`. */
function tokens(byWord: Record<string, ReturnType<typeof token>[]>) {
  ddbMock.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) => {
    const word = Object.keys(byWord).find((w) => input.ExpressionAttributeValues[':pk'] === gsi1.dealSearch('o1', w));
    return { Items: word ? byWord[word] : [] };
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
  it('puts the deals whose words match more of the query first, ties in the order found', async () => {
    const target = token('target', '1207 live oak ln austin');
    const sameStreet = token('street', '88 live oak ln austin');
    const sameNumber = token('number', '1207 elm st dallas');
    const city = token('city', '5 pine rd austin');
    tokens({ '1207': [sameNumber, target], live: [sameStreet, target], austin: [city, sameStreet, target] });
    expect(await dealIdsByWords('o1', ['1207', 'live', 'austin'], 50, ['1207', 'live', 'oak', 'ln', 'austin'])).toEqual(['target', 'street', 'number', 'city']);
  });

  it('keeps the deal at the address among the 25 read when only its number found it (its street words are common), and reads every candidate with a status', async () => {
    const street = Array.from({ length: 50 }, (_, i) => token(`s${i}`, `${i + 1} live oak ln austin`));
    const target = token('target', '1207 live oak ln austin');
    tokens({ '1207': [token('elsewhere', '1207 elm st dallas'), target], live: street, oak: street });
    await findDealsByAddress('o1', '1207 Live Oak Ln');
    const read = readIds();
    expect(read).toHaveLength(25);
    expect(read[0]).toBe('target');
    ddbMock.resetHistory();
    await findDealsByAddress('o1', '1207 Live Oak Ln', 'Active');
    expect(readIds()).toHaveLength(52);
  });
});
