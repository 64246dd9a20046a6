/**
 * The operations (one module each, lib/registry.ts) cover spec `../shared/spec/api-v1.md` "Endpoints" exactly: every
 * `| METHOD | path |` row of its endpoint tables is an operation, with `...` expanded from the
 * "The `...` prefix stands for `X`" sentence after the table (or, for a table without one, from the full
 * paths the spec writes out for the same `{param}`). Also checks the manifest's own invariants: unique
 * operationIds and routes, the group sizes the spec states, and partner access exactly on `/api/v1/orgs`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { loadOperations } from '#lib/registry';

const operations = await loadOperations();

interface SpecRow {
  method: string;
  path: string;
  /** The path as written in the table (before `...` expansion). */
  raw: string;
  /** The `### Heading` of the table the row is in. */
  section: string;
}

const SPEC_PATH = path.resolve(process.cwd(), '../shared/spec/api-v1.md');

const ROW = /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*([^|\s]+)\s*\|/;
const PREFIX_SENTENCE = /The `\.\.\.` prefix stands for `([^`]+)`/;

/** Parses the endpoint tables of the spec's "Endpoints" section. */
function parseSpecEndpoints(markdown: string): SpecRow[] {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => /^##\s+Endpoints\s*$/.test(l));
  if (start < 0) throw new Error(`no "## Endpoints" section in ${SPEC_PATH}`);
  const endRel = lines.slice(start + 1).findIndex((l) => /^##\s+\S/.test(l));
  const section = lines.slice(start + 1, endRel < 0 ? undefined : start + 1 + endRel);

  // Group rows by table; a prefix sentence belongs to the table right before it.
  interface Table {
    heading: string;
    rows: { method: string; raw: string }[];
    prefix?: string;
  }
  const tables: Table[] = [];
  let heading = '';
  let current: Table | undefined;
  for (const line of section) {
    const h = /^###\s+(.+?)\s*$/.exec(line);
    if (h) heading = h[1];
    if (line.startsWith('|')) {
      if (!current) {
        current = { heading, rows: [] };
        tables.push(current);
      }
      const m = ROW.exec(line);
      if (m) current.rows.push({ method: m[1], raw: m[2] });
      continue;
    }
    current = undefined;
    const p = PREFIX_SENTENCE.exec(line);
    if (p) {
      const last = tables[tables.length - 1];
      if (!last) throw new Error(`prefix sentence before any table: ${line}`);
      last.prefix = p[1].replace(/\/$/, '');
    }
  }

  // Full paths written out anywhere in the section, to infer a missing prefix from `{param}`.
  const fullPaths = [
    ...tables.flatMap((t) => t.rows.filter((r) => !r.raw.startsWith('...')).map((r) => r.raw)),
    ...tables.flatMap((t) =>
      t.prefix ? t.rows.filter((r) => r.raw.startsWith('...')).map((r) => t.prefix + r.raw.slice(3)) : [],
    ),
  ];
  const inferPrefix = (raw: string, table: Table): string => {
    const first = /^\.\.\.(\/\{\w+\})/.exec(raw)?.[1];
    if (!first) {
      throw new Error(`cannot expand "${raw}" in table "${table.heading}": no prefix sentence and no {param}`);
    }
    const candidates = new Set(
      fullPaths.filter((p) => p.includes(first + '/') || p.endsWith(first)).map((p) => p.slice(0, p.indexOf(first))),
    );
    if (candidates.size !== 1) {
      throw new Error(
        `cannot expand "${raw}" in table "${table.heading}": no prefix sentence and ` +
          `${candidates.size} candidate prefixes (${[...candidates].join(', ')})`,
      );
    }
    return [...candidates][0];
  };

  return tables.flatMap((t) =>
    t.rows.map((r) => ({
      method: r.method,
      raw: r.raw,
      section: t.heading,
      path: r.raw.startsWith('...') ? (t.prefix ?? inferPrefix(r.raw, t)) + r.raw.slice(3) : r.raw,
    })),
  );
}

const routeKey = (o: { method: string; path: string }) => `${o.method} ${o.path}`;

/** Entries of `items` whose key occurs more than once. */
function duplicates(keys: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const k of keys) (seen.has(k) ? dup : seen).add(k);
  return [...dup];
}

const specRows = parseSpecEndpoints(readFileSync(SPEC_PATH, 'utf8'));

describe('spec endpoint table parser', () => {
  it('finds the endpoint rows and expands every `...` prefix', () => {
    expect(specRows.length, 'too few endpoint rows parsed from the spec').toBeGreaterThan(100);
    const unexpanded = specRows.filter((r) => !r.path.startsWith('/api/v1/')).map(routeKey);
    expect(unexpanded, `rows not expanded to /api/v1/...:\n  ${unexpanded.join('\n  ')}`).toEqual([]);
    const keys = specRows.map(routeKey);
    // Spot checks: a plain row, a row expanded by a prefix sentence, one expanded by inference.
    expect(keys).toContain('DELETE /api/v1/scheduled-messages/{messageId}');
    expect(keys).toContain('POST /api/v1/disclosure-packages/{packageId}/activate');
    expect(keys).toContain('POST /api/v1/transactions/{transactionId}/emails/agent');
    expect(keys).toContain('DELETE /api/v1/orgs/{orgId}/users/{userId}');
  });
});

describe('operations manifest covers the spec', () => {
  it('has an operation for every (method, path) row of the spec', () => {
    const manifest = new Set(operations.map(routeKey));
    const missing = specRows
      .filter((r) => !manifest.has(routeKey(r)))
      .map((r) => `${routeKey(r)}   (spec "${r.section}": ${r.raw})`);
    expect(missing, `operations missing from the manifest:\n  ${missing.join('\n  ')}`).toEqual([]);
  });

  it('has unique operationIds', () => {
    const dup = duplicates(operations.map((o) => o.operationId));
    expect(dup, `duplicate operationIds: ${dup.join(', ')}`).toEqual([]);
  });

  it('has unique (method, path) routes', () => {
    const dup = duplicates(operations.map(routeKey));
    expect(dup, `duplicate routes: ${dup.join(', ')}`).toEqual([]);
  });

  const ofGroup = (group: string) => operations.filter((o) => o.group === group).map(routeKey);

  it('has 11 operations in the Documents group (spec "Documents and extractions")', () => {
    // Sharing a document by text is served by the messaging Lambda (it holds the SMS client and phone metadata).
    const docs = [...ofGroup('documents'), ...operations.filter((o) => o.operationId === 'shareTransactionDocument').map(routeKey)];
    expect(docs, `documents group:\n  ${docs.join('\n  ')}`).toHaveLength(11);
  });

  it('has 3 operations in the Extractions group (spec "Documents and extractions")', () => {
    const ex = ofGroup('extractions');
    expect(ex, `extractions group:\n  ${ex.join('\n  ')}`).toHaveLength(3);
  });

  it('has 6 operations in the spec\'s Contacts group', () => {
    // The spec's Contacts group is its own section (4 listed + 2 "not shown"). The contacts Lambda also
    // serves `POST /api/v1/transactions/{transactionId}/contacts`, a row of the spec's Transactions table,
    // so that route is not counted here.
    const contacts = operations
      .filter((o) => o.group === 'contacts' && !o.path.startsWith('/api/v1/transactions/'))
      .map(routeKey);
    expect(contacts, `contacts group (outside /api/v1/transactions):\n  ${contacts.join('\n  ')}`).toHaveLength(6);
  });

  it("gives access 'partner' to exactly the /api/v1/orgs operations", () => {
    const isOrgsPath = (p: string) => p === '/api/v1/orgs' || p.startsWith('/api/v1/orgs/');
    const wrong = operations
      .filter((o) => isOrgsPath(o.path) !== (o.access === 'partner'))
      .map((o) => `${o.operationId} (${routeKey(o)}) has access '${o.access}'`);
    expect(wrong, `partner access mismatches:\n  ${wrong.join('\n  ')}`).toEqual([]);
  });
});
