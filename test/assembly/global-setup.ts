/**
 * Global setup of the `assembly` test project: the synthesized test assembly (test/support/assembly-synth.ts), then
 * the run's DynamoDB Local as the other runtime tests have it (test/support/global-setup.ts); each assembly runtime
 * makes its own table (its own stack name).
 */
import type { TestProject } from 'vitest/node';
import { ensureTestAssembly } from '../support/assembly-synth.ts';
import { setup as startDynamoDbLocal, teardown } from '../support/global-setup.ts';

export async function setup(project: TestProject) {
  project.provide('assemblyDir', ensureTestAssembly());
  await startDynamoDbLocal(project);
}

export { teardown };

declare module 'vitest' {
  export interface ProvidedContext {
    assemblyDir: string;
  }
}
