/**
 * vitest's sequencer, with the suite's longest files first in their project. vitest orders files by their last
 * duration when its cache (node_modules/.vite/vitest) has one, and by size otherwise: a fresh clone (CI, a new
 * checkout) would run the fuzz files, which are small, last, leaving one worker alone with a minutes-long tail.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that took 25 s or more in a full run on 2 cores (2026-11-27), longest first. The webhook delivery files are
 * left out: they wait on 1 s retries rather than compute, and their receivers' timeouts suffer when they share the
 * busiest minutes with these.
 */
export const HEAVY_FIRST = [
  'test/e2e/fuzz-edge-deals.test.ts',
  'test/e2e/fuzz-edge-workspace.test.ts',
  'test/e2e/fuzz-edge-documents.test.ts',
  'test/integration/extraction-trec-image.test.ts',
  'test/e2e/readme-blocks.test.ts',
  'test/integration/bounded-reads.test.ts',
  'test/e2e/isolation-path-ids.test.ts',
  'test/e2e/oauth-flow.test.ts',
  'test/e2e/proposals-sources.test.ts',
];

const rank = (spec: TestSpecification): number => {
  const i = HEAVY_FIRST.findIndex((f) => spec.moduleId.endsWith(f));
  return i < 0 ? HEAVY_FIRST.length : i;
};

/**
 * Projects that run after the others: the assembly files wait for the test assembly's synthesis, which runs in the
 * background from the start of the run (test/support/assembly-synth.ts); run first, they held a worker idle for it.
 */
const LAST_PROJECTS = ['assembly'];

export default class HeavyFirstSequencer extends BaseSequencer {
  /** vitest's order (projects one after another, `LAST_PROJECTS` last), then, within each project, the files above first. */
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of await super.sort(files)) byProject.set(spec.project.name, [...(byProject.get(spec.project.name) ?? []), spec]);
    const late = (name: string) => (LAST_PROJECTS.includes(name) ? 1 : 0);
    return [...byProject.entries()].sort(([a], [b]) => late(a) - late(b)).map(([, specs]) => specs).flatMap((specs) => specs.map((spec, i) => ({ spec, i })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i).map(({ spec }) => spec));
  }
}
