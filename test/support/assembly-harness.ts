/**
 * The assembly runtime for tests (lib/local/assembly/runtime.ts): the synthesized test assembly
 * (`inject('assemblyDir')`) on the run's DynamoDB Local, under a stack name of its own so runtimes do not share
 * tables. Organizations are made the operator's way (the CLI's repositories, here pointed at that table).
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { startAssemblyRuntime, type AssemblyRuntime } from '#lib/local/assembly/runtime';
import { resetDbClient } from '#db/client';
import { workerDynamoEndpoint } from './dynamo-endpoint.ts';
import { waitForTestAssembly } from './assembly-synth.ts';

/**
 * Timeout (ms) of a hook that calls `startTestAssembly`: it may wait for the run's synthesis (about 35 s on 2 cores,
 * longer beside the other files) before the runtime's own start.
 */
export const ASSEMBLY_START_TIMEOUT_MS = 300_000;

/**
 * Starts the runtime, once the run's synthesis of the assembly has finished, and points this process's repositories
 * at its table.
 * @throws Error with the CLI's output when that synthesis failed
 * @param prefix names the stack (`<prefix>-<random>`), hence every physical name
 */
export async function startTestAssembly(prefix: string): Promise<AssemblyRuntime> {
  await waitForTestAssembly(inject('assemblyStamp'));
  const rt = await startAssemblyRuntime({ cdkOut: inject('assemblyDir'), dynamoEndpoint: workerDynamoEndpoint(), stackName: `${prefix}-${randomUUID().slice(0, 8)}` });
  const table = rt.assembly.root.ofType('AWS::DynamoDB::Table').map((id) => String(rt.assembly.root.resolve({ Ref: id })))[0]!;
  Object.assign(process.env, { TABLE_NAME: table, DYNAMODB_ENDPOINT: workerDynamoEndpoint() });
  resetDbClient();
  return rt;
}

/** The recent output of every function that wrote any (for a failing assertion's message). */
export function functionLogs(rt: AssemblyRuntime, lines = 5): string {
  return [...rt.functions]
    .map(([id, pool]) => [id, pool.recentLogs().slice(-lines)] as const)
    .filter(([, l]) => l.length)
    .map(([id, l]) => `${id}:\n  ${l.join('\n  ')}`)
    .join('\n');
}
