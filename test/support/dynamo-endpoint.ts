/** The DynamoDB Local engine of this vitest worker (global-setup.ts starts one per worker of the `runtime` project). */
import { inject } from 'vitest';

/**
 * This worker's endpoint: `VITEST_POOL_ID` (1 … maxWorkers, stable for the worker's life) picks one of the engines,
 * so two workers never queue behind each other's requests.
 */
export function workerDynamoEndpoint(): string {
  const endpoints = inject('dynamoEndpoints');
  const worker = Math.max(1, Number(process.env.VITEST_POOL_ID) || 1);
  return endpoints[(worker - 1) % endpoints.length];
}
