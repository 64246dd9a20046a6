/**
 * Vitest global setup: in-memory DynamoDB Local engines for the run (each test file makes its own table, see
 * `test-table.ts`), one per worker for the `runtime` project and one for the others. DynamoDB Local runs every
 * request of a database on one thread (its `SQLiteQueue`), so one engine shared by two workers held the whole suite
 * to one core while the workers waited; a worker reaches its own engine through `workerDynamoEndpoint()`
 * (dynamo-endpoint.ts).
 */
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../lib/local/dynamodb-local.ts';

let engines: DynamoDbLocal[] = [];

export async function setup(project: TestProject) {
  const workers = project.name === 'runtime' ? Math.max(1, Number(project.config.maxWorkers) || 1) : 1;
  engines = await Promise.all(Array.from({ length: workers }, () => startDynamoDbLocal({ timeoutMs: 60_000 })));
  project.provide('dynamoEndpoints', engines.map((e) => e.endpoint));
}

export async function teardown() {
  await Promise.all(engines.map((e) => e.stop()));
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One DynamoDB Local endpoint per worker (or one for the whole project). */
    dynamoEndpoints: string[];
  }
}
