/**
 * Vitest global setup: in-memory DynamoDB Local engines for the run (each test file makes its own table, see
 * `test-table.ts`). Two things about the engine shape this:
 * - It runs every request of a database on one thread (its `SQLiteQueue`), so one engine shared by two workers held
 *   the whole suite to one core while the workers waited: each worker of the `runtime` project has engines of its own.
 * - Every table it has made slows the work on each new table, even once the old ones are deleted: 8 `BatchWriteItem`
 *   of 25 items and 20 queries on a new table cost the engine 0.5 s of CPU at its 10th-20th table and 1.6 s at its
 *   60th, against 0.2 s on one reused table (bench/dynamodb-local-tables.ts, 2026-11-27, 2 cores). A run makes some
 *   180 tables. So each `runtime` worker gets `ENGINES_PER_WORKER` engines and moves to its next one once the current
 *   holds `TABLES_PER_ENGINE` tables (`moveOffWornEngine`, dynamo-endpoint.ts). Only the first engine of each worker
 *   is awaited here; the others start in the background while the first files run.
 * - An engine of the suite lives for about 20 tables, so its JVM runs with the client compiler only
 *   (`-XX:TieredStopAtLevel=1`, `TEST_ENGINE_JVM_OPTIONS`): it started in 1.6 s of CPU instead of 2.7 s, and the
 *   bench's first 30 tables cost it 18 s instead of 22-27 s (bench/dynamodb-local-tables.ts `new`, two runs each,
 *   2026-11-27, a loaded machine). C2's code only pays back on an engine serving far longer (`npm start`).
 */
import type { TestProject } from 'vitest/node';
import { freePort, startDynamoDbLocal, type DynamoDbLocal } from '../../lib/local/dynamodb-local.ts';

/** Engines each worker of the `runtime` project can move through (the other projects have one). */
export const ENGINES_PER_WORKER = 5;

/** The test engines' JVM options (see above). */
export const TEST_ENGINE_JVM_OPTIONS = ['-XX:TieredStopAtLevel=1'];

const started: Promise<DynamoDbLocal | undefined>[] = [];

/** Starts an engine on a port chosen now, so its endpoint is known before it answers. */
async function engineAt(): Promise<{ endpoint: string; ready: Promise<DynamoDbLocal | undefined> }> {
  const port = await freePort();
  const ready = startDynamoDbLocal({ port, timeoutMs: 60_000, jvmOptions: TEST_ENGINE_JVM_OPTIONS });
  // A spare that failed to start fails the worker that moves to it (it never answers), not the run's setup.
  started.push(ready.catch(() => undefined));
  return { endpoint: `http://127.0.0.1:${port}`, ready };
}

export async function setup(project: TestProject) {
  const workers = project.name === 'runtime' ? Math.max(1, Number(project.config.maxWorkers) || 1) : 1;
  const perWorker = project.name === 'runtime' ? ENGINES_PER_WORKER : 1;
  const engines = await Promise.all(Array.from({ length: workers }, () => Promise.all(Array.from({ length: perWorker }, engineAt))));
  await Promise.all(engines.map((own) => own[0].ready));
  project.provide('dynamoEngines', engines.map((own) => own.map((e) => e.endpoint)));
}

export async function teardown() {
  const engines = await Promise.all(started.splice(0));
  await Promise.all(engines.map((e) => e?.stop()));
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Per worker, the DynamoDB Local endpoints it moves through (one for the whole project outside `runtime`). */
    dynamoEngines: string[][];
  }
}
