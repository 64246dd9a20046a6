/**
 * How DynamoDB Local's cost grows with the tables it has made (docs/testing.md, "a fresh engine every 30 tables"):
 * `npx tsx bench/dynamodb-local-tables.ts [new|deleted|same]`. One in-memory engine; 60 rounds, each 8
 * `BatchWriteItem` of 25 items and 20 queries on
 * - `new`: a table of its own (the test suite's pattern: a table per file),
 * - `deleted`: a table of its own, deleted after the round,
 * - `same`: one table for every round (new keys each round).
 * Prints the engine's CPU seconds (user + system, from /proc) per round, averaged over each 10 rounds, and the share
 * of it spent in `CreateTable`. Reported, never asserted; Linux only.
 */
import { readFileSync } from 'node:fs';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable } from '#lib/local/ensure-table';
import { startDynamoDbLocal } from '#lib/local/dynamodb-local';

const mode = process.argv[2] ?? 'new';
if (!['new', 'deleted', 'same'].includes(mode)) throw new Error(`mode ${mode}: new, deleted or same`);

/** CPU seconds (user + system) of process `pid` so far. */
const cpuOf = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

const engine = await startDynamoDbLocal();
const pid = engine.process.pid!;
const raw = new DynamoDBClient({ endpoint: engine.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
const doc = DynamoDBDocumentClient.from(raw);
let last = cpuOf(pid);
let creating = 0;
console.log(`mode ${mode}: engine CPU per round (8 BatchWriteItem × 25 items + 20 queries)`);
for (let round = 0; round < 60; round++) {
  const table = mode === 'same' ? 'probe' : `probe-${round}`;
  const before = cpuOf(pid);
  if (mode !== 'same' || round === 0) await ensureTable(engine.endpoint, table);
  creating += cpuOf(pid) - before;
  for (let b = 0; b < 8; b++) {
    const items = Array.from({ length: 25 }, (_, i) => ({ PutRequest: { Item: { PK: `R#${round}#${b}`, SK: `I#${i}`, GSI1PK: `G#${b % 7}`, GSI1SK: `${round}#${i}`, data: 'x'.repeat(300) } } }));
    await doc.send(new BatchWriteCommand({ RequestItems: { [table]: items } }));
  }
  for (let q = 0; q < 20; q++) await doc.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `R#${round}#${q % 8}` } }));
  if (mode === 'deleted') await raw.send(new DeleteTableCommand({ TableName: table }));
  if (round % 10 === 9) {
    const now = cpuOf(pid);
    console.log(`rounds ${round - 8}–${round + 1}: ${((now - last) / 10).toFixed(2)} s per round (CreateTable ${(creating / 10).toFixed(2)} s)`);
    last = now;
    creating = 0;
  }
}
raw.destroy();
await engine.stop();
