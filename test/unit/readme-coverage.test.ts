/** The README coverage table lists every operation with its true status, so users see what answers 501. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operations } from '#api/operations';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const rows = new Map(
  readme
    .split('\n')
    .map((line) => /^\|[^|]+\| `(\w+)`.*\| `(GET|POST|PUT|PATCH|DELETE) ([^`]+)` \|.*\| (implemented|501[^|]*) \|$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [`${m[2]} ${m[3]}`, { operationId: m[1], status: m[4] }]),
);

describe('README coverage table', () => {
  it('has one row per operation', () => {
    expect(rows.size).toBe(operations.length);
  });

  it.each(operations.map((op) => [op.operationId, op]))('%s is listed with its status', (_id, op) => {
    const row = rows.get(`${op.method} ${op.path}`);
    expect(row, `README is missing ${op.method} ${op.path}`).toBeDefined();
    expect(row!.operationId).toBe(op.operationId);
    expect(row!.status.startsWith('501')).toBe(op.availability.status !== 'implemented');
  });
});
