/**
 * Vitest global setup: one in-memory DynamoDB Local for the whole run (each test file makes its own
 * table, see `test-table.ts`). Its endpoint reaches the tests through `inject('dynamoEndpoint')`.
 */
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../lib/local/dynamodb-local.ts';

let ddb: DynamoDbLocal | undefined;

export async function setup(project: TestProject) {
  ddb = await startDynamoDbLocal({ timeoutMs: 60_000 });
  project.provide('dynamoEndpoint', ddb.endpoint);
}

export async function teardown() {
  await ddb?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
