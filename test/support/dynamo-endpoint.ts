/**
 * The DynamoDB Local engine of this vitest worker: global-setup.ts starts engines of its own for each worker of the
 * `runtime` project (one for the other projects), and the worker moves to its next one when the current holds
 * `TABLES_PER_ENGINE` tables, because every table made slows each later request of an engine (global-setup.ts).
 */
import { inject } from 'vitest';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/** Tables an engine holds before the worker moves on at the start of its next file. */
export const TABLES_PER_ENGINE = 20;

/** Index of this worker's engine in use (module state: the runtime project shares modules across a worker's files). */
let current = 0;

/** This worker's engines: `VITEST_POOL_ID` (1 … maxWorkers, stable for the worker's life) picks the list. */
function workerEngines(): string[] {
  const pools = inject('dynamoEngines');
  const worker = Math.max(1, Number(process.env.VITEST_POOL_ID) || 1);
  return pools[(worker - 1) % pools.length];
}

/** This worker's endpoint in use, so two workers never queue behind each other's requests. */
export function workerDynamoEndpoint(): string {
  const engines = workerEngines();
  return engines[Math.min(current, engines.length - 1)];
}

/** The engine at `endpoint`: its number of tables, or undefined while it does not answer yet. */
async function tableCount(endpoint: string): Promise<number | undefined> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  try {
    let count = 0;
    let ExclusiveStartTableName: string | undefined;
    do {
      const out = await client.send(new ListTablesCommand({ ExclusiveStartTableName }));
      count += out.TableNames?.length ?? 0;
      ExclusiveStartTableName = out.LastEvaluatedTableName;
    } while (ExclusiveStartTableName);
    return count;
  } catch {
    return undefined;
  } finally {
    client.destroy();
  }
}

/**
 * Moves this worker to its next engine when the current one holds `TABLES_PER_ENGINE` tables or more (the last engine
 * is kept whatever it holds), and waits until that engine answers. Called where nothing of the file is bound to an
 * engine yet: before each file (file-reset.ts) and by `useTestTable({ mayMoveEngine: true })`. The engine left
 * keeps running until the run ends, so nothing made on it disappears.
 * @throws Error when the next engine does not answer within 60 s
 */
export async function moveOffWornEngine(): Promise<void> {
  const engines = workerEngines();
  if (current >= engines.length - 1) return;
  if (((await tableCount(workerDynamoEndpoint())) ?? 0) < TABLES_PER_ENGINE) return;
  current++;
  const deadline = Date.now() + 60_000;
  while ((await tableCount(workerDynamoEndpoint())) === undefined) {
    if (Date.now() > deadline) throw new Error(`DynamoDB Local at ${workerDynamoEndpoint()} did not answer`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
