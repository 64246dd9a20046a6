/**
 * Vitest reporter that ends the run with one plain line, `N passed, N failed` (CI reads it). A test file
 * that fails without a failed test (it does not load, or a `beforeAll`/`afterAll` hook fails, which leaves its tests
 * skipped), and an unhandled error, each count as one failure. Before it, the ten slowest files (their
 * tests and hooks, seconds), to keep the suite within its 10-minute budget.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const mod of testModules) {
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      failed += failedHere || (mod.state() === 'failed' ? 1 : 0);
    }
    const slowest = [...testModules]
      .map((m) => ({ file: m.relativeModuleId, seconds: m.diagnostic().duration / 1000 }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 10)
      .map((m) => `  ${m.seconds.toFixed(1).padStart(6)} s  ${m.file}`);
    // Printed after vitest's own summary, so the count is the run's last line.
    setImmediate(() => process.stdout.write(`\nslowest files:\n${slowest.join('\n')}\n\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`));
  }
}
