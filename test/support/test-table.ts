/**
 * Gives a test file its own table on the run's DynamoDB Local (created from the deployed definition),
 * and points the repositories at it through the same environment variables Lambda uses.
 */
import { randomUUID } from 'node:crypto';
import { ensureTable } from '#lib/local/ensure-table';
import { resetDbClient } from '#db/client';
import { workerDynamoEndpoint } from './dynamo-endpoint.ts';

/** Creates a fresh table and sets `TABLE_NAME` / `DYNAMODB_ENDPOINT`. @returns the table name */
export async function useTestTable(): Promise<{ tableName: string; endpoint: string }> {
  const endpoint = workerDynamoEndpoint();
  const tableName = `test-${randomUUID().slice(0, 8)}`;
  await ensureTable(endpoint, tableName);
  process.env.TABLE_NAME = tableName;
  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.AWS_REGION = 'local';
  resetDbClient();
  return { tableName, endpoint };
}
