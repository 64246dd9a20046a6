/**
 * The operations registry: every module under `functions/<group>/` is one operation whose group is its folder;
 * each group's generated Lambda entry imports exactly its own modules; wiring mistakes fail loudly.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isImplemented } from '#api/operation';
import { LAMBDA_GROUPS } from '#api/types';
import { groupHandler } from '#http/pipeline';
import { loadOperations, operationFilesOf, type ModuleOperation } from '#lib/registry';
import { groupEntrySource, writeGroupEntries } from '#lib/group-entries';

let ops: ModuleOperation[];
beforeAll(async () => {
  ops = await loadOperations();
});

describe('registry', () => {
  it('finds one operation per module file, grouped by folder', () => {
    const files = LAMBDA_GROUPS.flatMap((g) => operationFilesOf(g));
    expect(ops.map((op) => op.file)).toEqual(files);
    for (const op of ops) expect(op.file).toContain(`${path.sep}functions${path.sep}${op.group}${path.sep}`);
  });

  it('names each module after its operationId (kebab-case)', () => {
    for (const op of ops) expect(path.basename(op.file, '.ts')).toBe(op.operationId.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase());
  });

  it('gives an implemented operation a handler and a planned one the issue that builds it', () => {
    for (const op of ops) {
      if (isImplemented(op)) expect(op.planned).toBeUndefined();
      else expect(op.planned).toMatch(/^issue #\d+/);
    }
  });

  it("refuses to wire a group's handler with another group's operation", () => {
    const foreign = ops.find((op) => op.group === 'transactions')!;
    expect(() => groupHandler('documents', [foreign])).toThrow(/belongs to group transactions, not documents/);
  });
});

describe('generated group entries', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tcs-entries-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(LAMBDA_GROUPS.map((g) => [g]))('%s imports exactly its own operation modules', (group) => {
    const source = groupEntrySource(group, ops, dir);
    const imported = [...source.matchAll(/^import op\d+ from '([^']+)';$/gm)].map((m) => path.resolve(dir, m[1]));
    expect(imported).toEqual(ops.filter((op) => op.group === group).map((op) => op.file));
    expect(source).toContain(`groupHandler('${group}', ops`);
  });

  it('builds the catalog only into groups whose operations use it (meta serves GET /catalog)', () => {
    const entries = writeGroupEntries(ops, LAMBDA_GROUPS, dir);
    const withCatalog = LAMBDA_GROUPS.filter((g) => readFileSync(entries.get(g)!, 'utf8').includes('const catalog = '));
    expect(withCatalog).toEqual(['meta']);
    const catalog = JSON.parse(/const catalog = (.*);$/m.exec(readFileSync(entries.get('meta')!, 'utf8'))![1]) as { operationId: string; planned: string | null }[];
    expect(catalog.map((c) => c.operationId)).toEqual(ops.map((op) => op.operationId));
    expect(catalog.filter((c) => c.planned === null).length).toBe(ops.filter(isImplemented).length);
  });

  it('refuses a group without operations', () => {
    expect(() => groupEntrySource('meta', [], dir)).toThrow(/has no operations/);
  });
});
