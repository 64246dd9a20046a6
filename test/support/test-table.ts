/**
 * Gives a test file its own table on the run's DynamoDB Local (created from the deployed definition),
 * and points the repositories at it through the same environment variables Lambda uses.
 */
import { randomUUID } from 'node:crypto';
import { ensureTable } from '#lib/local/ensure-table';
import { resetDbClient } from '#db/client';
import { moveOffWornEngine, workerDynamoEndpoint } from './dynamo-endpoint.ts';

/**
 * Creates a fresh table and sets `TABLE_NAME` / `DYNAMODB_ENDPOINT`.
 * @param opts.mayMoveEngine the table may go to this worker's next engine when the current one is worn
 *   (dynamo-endpoint.ts): only for a caller whose servers read the endpoint from the environment on every request,
 *   as the fuzz suite's local API does, since a table made earlier stays on the engine left
 * @returns the table name and its engine's endpoint
 */
export async function useTestTable(opts: { mayMoveEngine?: boolean } = {}): Promise<{ tableName: string; endpoint: string }> {
  if (opts.mayMoveEngine) await moveOffWornEngine();
  const endpoint = workerDynamoEndpoint();
  const tableName = `test-${randomUUID().slice(0, 8)}`;
  await ensureTable(endpoint, tableName);
  process.env.TABLE_NAME = tableName;
  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.AWS_REGION = 'local';
  resetDbClient();
  return { tableName, endpoint };
}
