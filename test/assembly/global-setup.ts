/**
 * Global setup of the `assembly` test project: the synthesized test assembly (test/support/assembly-synth.ts) and
 * one DynamoDB Local for the run; each runtime makes its own table (its own stack name).
 */
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../lib/local/dynamodb-local.ts';
import { ensureTestAssembly } from '../support/assembly-synth.ts';

let ddb: DynamoDbLocal | undefined;

export async function setup(project: TestProject) {
  project.provide('assemblyDir', ensureTestAssembly());
  ddb = await startDynamoDbLocal({ timeoutMs: 60_000 });
  project.provide('dynamoEndpoint', ddb.endpoint);
}

export async function teardown() {
  await ddb?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    assemblyDir: string;
  }
}
