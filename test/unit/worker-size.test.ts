/**
 * Workers are thin (../shared/STYLE.md rule 14): every worker's handler module parses its event, calls a use case
 * (shared/use-cases/) and reports failures, in at most 40 lines, docstring included, so the rules and the metrics
 * they count live in shared/. Checked: each `functions/<worker>/handler.ts` and each extraction step's task module
 * (lib/extraction-pipeline.ts `STEP_HANDLER_FILES`). The API groups' entries are generated (lib/group-entries.ts)
 * and their operations are modules of their own. `functions/oauth/handler.ts`, the OAuth server, is an HTTP function
 * rather than a worker, but it is held to the same size: it only dispatches to its route modules.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STEP_HANDLER_FILES } from '#lib/extraction-pipeline';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Most lines a worker handler module may have (the whole file). */
const MAX_LINES = 40;
/** Lines of a file as an editor numbers them (a final newline does not start a line). */
const linesOf = (file: string): number => readFileSync(path.join(ROOT, file), 'utf8').replace(/\n$/, '').split('\n').length;

const workerHandlers = readdirSync(path.join(ROOT, 'functions'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => `functions/${d.name}/handler.ts`)
  .filter((f) => existsSync(path.join(ROOT, f)));
const stepHandlers = Object.values(STEP_HANDLER_FILES);

describe(`worker handlers are at most ${MAX_LINES} lines`, () => {
  it('finds the workers (webhooks, messaging, uploads, lifecycle) and the six extraction steps', () => {
    expect(workerHandlers).toEqual(expect.arrayContaining(['functions/webhook-delivery/handler.ts', 'functions/document-uploaded/handler.ts', 'functions/inbound-email/handler.ts']));
    expect(workerHandlers.length).toBeGreaterThanOrEqual(10);
    expect(stepHandlers).toHaveLength(6);
  });

  it.each([...workerHandlers, ...stepHandlers])('%s', (file) => {
    expect(linesOf(file), `${file}: move the logic and its metrics to a use case in shared/use-cases/`).toBeLessThanOrEqual(MAX_LINES);
  });
});
