import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Powertools stays quiet in tests (no JSON lines, no EMF, no X-Ray); tests that assert logs or metrics turn
// them on (test/support/telemetry.ts).
const env = { NO_COLOR: '1', AWS_REGION: 'local', POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true', POWERTOOLS_TRACE_ENABLED: 'false' };

/**
 * Unit files that vi.mock modules or set the environment before their imports (`vi.hoisted`), found by reading them so
 * a new one cannot be forgotten: a shared module graph would hand them, or the files after them, modules built for
 * another file (a mocked one, or a logger made under another log level).
 */
const unitDir = new URL('./test/unit/', import.meta.url);
const MOCKS_MODULES = readdirSync(unitDir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts') && /vi\.(mock|hoisted)\(/.test(readFileSync(new URL(f, unitDir), 'utf8')))
  .map((f) => `test/unit/${f}`);

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
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
        test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/infra/**/*.test.ts'], exclude: MOCKS_MODULES, isolate: false },
      },
      {
        extends: true,
        // One process per file: the runtime tests on DynamoDB Local (process-wide clients, clock, env), and unit
        // files that replace modules with vi.mock.
        test: { name: 'isolated', include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts', ...MOCKS_MODULES], globalSetup: ['test/support/global-setup.ts'] },
      },
      {
        extends: true,
        // What `cdk deploy` ships, run from the synthesized assembly (synthesized in the global setup when stale).
        test: { name: 'assembly', include: ['test/assembly/**/*.test.ts'], globalSetup: ['test/assembly/global-setup.ts'] },
      },
    ],
  },
});
