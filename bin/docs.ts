/**
 * `npm run docs`: regenerates what the README derives from the operations (the coverage table), so adding or
 * finishing an operation never means hand-editing a table. Prints whether the README changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { coverageTable, withCoverageTable } from '../lib/coverage-table.ts';
import { loadOperations } from '../lib/registry.ts';

const README = new URL('../README.md', import.meta.url);
const before = readFileSync(README, 'utf8');
const after = withCoverageTable(before, coverageTable(await loadOperations()));
if (after === before) console.log('README.md: coverage table up to date');
else {
  writeFileSync(README, after);
  console.log('README.md: coverage table regenerated');
}
