/**
 * `npm run docs`: regenerates what the docs derive from the operations (the coverage table of docs/coverage.md), so
 * adding or finishing an operation never means hand-editing a table. Prints whether the page changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { coverageTable, withCoverageTable } from '../lib/coverage-table.ts';
import { loadOperations } from '../lib/registry.ts';

const COVERAGE_PAGE = new URL('../docs/coverage.md', import.meta.url);
const before = readFileSync(COVERAGE_PAGE, 'utf8');
const after = withCoverageTable(before, coverageTable(await loadOperations()));
if (after === before) console.log('docs/coverage.md: coverage table up to date');
else {
  writeFileSync(COVERAGE_PAGE, after);
  console.log('docs/coverage.md: coverage table regenerated');
}
