/** The README coverage table is the one `npm run docs` generates from the registry, so users see what answers 501. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COVERAGE_BEGIN, COVERAGE_END, coverageTable, withCoverageTable } from '#lib/coverage-table';
import { loadOperations } from '#lib/registry';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README coverage table', () => {
  it('is up to date (run `npm run docs`)', async () => {
    const ops = await loadOperations();
    expect(withCoverageTable(readme, coverageTable(ops))).toBe(readme);
  }, 120_000); // the first test of the file imports all 116 operation modules

  it('lists every operation once, planned ones as 501 with their issue', async () => {
    const ops = await loadOperations();
    const section = readme.slice(readme.indexOf(COVERAGE_BEGIN), readme.indexOf(COVERAGE_END));
    const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Group'));
    expect(rows).toHaveLength(ops.length);
    for (const op of ops) {
      const row = rows.find((r) => r.includes(`\`${op.method} ${op.path}\``));
      expect(row, `${op.operationId} missing`).toBeDefined();
      expect(row!.includes('501 `not_implemented`')).toBe(op.handler === undefined);
    }
  });

  it('refuses a README without markers', () => {
    expect(() => withCoverageTable('# no table here', 'x')).toThrow(/markers/);
  });
});
