import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import HeavyFirstSequencer from './test/support/heavy-first-sequencer.ts';

// Powertools stays quiet in tests (no JSON lines, no EMF, no X-Ray); tests that assert logs or metrics turn
// them on (test/support/telemetry.ts).
const env = { NO_COLOR: '1', AWS_REGION: 'local', POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true', POWERTOOLS_TRACE_ENABLED: 'false' };

/**
 * Test files that vi.mock modules or set the environment before their imports (`vi.hoisted`), found by reading them so
 * a new one cannot be forgotten: a shared module graph would hand them, or the files after them, modules built for
 * another file (a mocked one, or a logger made under another log level).
 */
const needsOwnGraph = (dir: string): string[] => {
  const root = new URL(`./test/${dir}/`, import.meta.url);
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts') && /vi\.(mock|hoisted|doMock)\(/.test(readFileSync(new URL(f, root), 'utf8')))
    .map((f) => `test/${dir}/${f}`);
};
const MOCKING_UNITS = needsOwnGraph('unit');
/**
 * Runtime files kept in a process of their own although they mock nothing, because they failed in a shared graph and
 * never alone or in their own process; the cause is not found yet (issue 24's note): the flaky-receiver delivery test
 * stalled (2 of 40 events neither delivered nor failed within 90 s) in 3 of 4 full runs, and two local SQS poller
 * tests missed their timing in the fifth.
 */
const OWN_PROCESS_RUNTIME = ['test/e2e/webhooks-delivery-retries.test.ts', 'test/integration/local-pollers.test.ts'];
const MOCKING_RUNTIME = [...needsOwnGraph('integration'), ...needsOwnGraph('e2e'), ...OWN_PROCESS_RUNTIME];

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // The longest files first, with or without vitest's cache of durations (test/support/heavy-first-sequencer.ts).
    sequence: { sequencer: HeavyFirstSequencer },
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env,
    projects: [
      {
        extends: true,
        // Pure unit and CDK tests share one module graph per worker: imports (aws-cdk-lib, the registry) and the
        // default synthesis (test/infra/synth.ts) are paid once per worker, not per file.
        test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/infra/**/*.test.ts'], exclude: MOCKING_UNITS, isolate: false },
      },
      {
        extends: true,
        // The runtime tests on DynamoDB Local and over HTTP share one module graph per worker too: loading the app's
        // modules once per worker instead of once per file took 8 e2e files from 70 to 49 CPU-seconds. Each file
        // starts clean (environment, clock, the ports' cached clients: test/support/file-reset.ts).
        test: {
          name: 'runtime',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          exclude: MOCKING_RUNTIME,
          isolate: false,
          setupFiles: ['test/support/file-reset.ts'],
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      {
        extends: true,
        // One process per file: the files that replace modules with vi.mock or set the environment first (those of
        // them that run on DynamoDB Local get their own engine from this project's global setup).
        test: { name: 'isolated', include: [...MOCKING_UNITS, ...MOCKING_RUNTIME], globalSetup: ['test/support/global-setup.ts'] },
      },
      {
        extends: true,
        // What `cdk deploy` ships, run from the synthesized assembly (synthesized in the global setup when stale).
        test: { name: 'assembly', include: ['test/assembly/**/*.test.ts'], globalSetup: ['test/assembly/global-setup.ts'] },
      },
    ],
  },
});
