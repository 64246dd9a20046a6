/** The coverage table of docs/coverage.md (linked from the README) is the one `npm run docs` generates from the registry, so users see what answers 501. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COVERAGE_BEGIN, COVERAGE_END, coverageTable, withCoverageTable } from '#lib/coverage-table';
import { loadOperations } from '#lib/registry';

const page = readFileSync(new URL('../../docs/coverage.md', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('docs/coverage.md coverage table', () => {
  it('is up to date (run `npm run docs`)', async () => {
    const ops = await loadOperations();
    expect(withCoverageTable(page, coverageTable(ops))).toBe(page);
  }, 120_000); // the first test of the file imports all 116 operation modules

  it('lists every operation once, planned ones as 501 with their issue', async () => {
    const ops = await loadOperations();
    const section = page.slice(page.indexOf(COVERAGE_BEGIN), page.indexOf(COVERAGE_END));
    const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Group'));
    expect(rows).toHaveLength(ops.length);
    for (const op of ops) {
      const row = rows.find((r) => r.includes(`\`${op.method} ${op.path}\``));
      expect(row, `${op.operationId} missing`).toBeDefined();
      expect(row!.includes('501 `not_implemented`')).toBe(op.handler === undefined);
    }
  });

  it('is linked from the README', () => {
    expect(readme).toContain('](docs/coverage.md)');
  });

  it('refuses a page without markers', () => {
    expect(() => withCoverageTable('# no table here', 'x')).toThrow(/markers/);
  });
});
