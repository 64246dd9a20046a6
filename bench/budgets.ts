/**
 * `npm run bench:bundles`: issue 24's bundle and init budgets (bench/budget-check.ts), without the rest of
 * `npm run bench`. `--runs N` sets the init samples per bundle (default 7). Results: stdout and `.bench/budgets.json`;
 * the process exits 0 whatever the figures (reported, not asserted: timings depend on the machine).
 */
import { parseArgs } from 'node:util';
import { checkBudgets } from './budget-check.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
console.log((await checkBudgets(Number(values.runs))).text);
