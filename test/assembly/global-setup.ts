/**
 * Global setup of the `assembly` test project: starts synthesizing the test assembly in the background
 * (test/support/assembly-synth.ts; the files wait for it), then the run's DynamoDB Local as the other runtime tests
 * have it (test/support/global-setup.ts); each assembly runtime makes its own table (its own stack name).
 */
import type { TestProject } from 'vitest/node';
import { startTestAssemblySynth } from '../support/assembly-synth.ts';
import { setup as startDynamoDbLocal, teardown as stopDynamoDbLocal } from '../support/global-setup.ts';

let synthesized: Promise<void> = Promise.resolve();

export async function setup(project: TestProject) {
  const synth = startTestAssemblySynth();
  synthesized = synth.done;
  project.provide('assemblyDir', synth.outdir);
  project.provide('assemblyStamp', synth.stamp);
  await startDynamoDbLocal(project);
}

/** Stops the engine, and lets a synthesis still running (a run with no assembly file left) finish its files. */
export async function teardown() {
  await Promise.all([stopDynamoDbLocal(), synthesized]);
}

declare module 'vitest' {
  export interface ProvidedContext {
    assemblyDir: string;
    /** What the run's synthesis writes to its stamp file when it succeeded. */
    assemblyStamp: string;
  }
}
