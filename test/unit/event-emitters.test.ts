/**
 * Events have one owner (../shared/STYLE.md rule 14), checked by reading the sources: only use cases (shared/use-cases/) import
 * the outbox `Put` builder (shared/db/outbox.ts `outboxPut`), every call names its event type as a string literal,
 * and each type of the catalog (shared/events/catalog.ts) is emitted by exactly one call. The payload of each type
 * is checked by the compiler (`@ts-expect-error` below: `tsc --noEmit` fails if a wrong payload compiles).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENT_CATALOG, type EventType } from '#events/catalog';
import { outboxPut } from '#db/outbox';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The code that ships or runs the service (tests may build outbox items to feed fan-out). */
const SOURCE_DIRS = ['shared', 'functions', 'lib', 'bin'];
/** Types of the spec's catalog no operation emits yet (no operation completes a key date). */
const NOT_EMITTED: EventType[] = ['key_date.completed'];

interface Emit {
  file: string;
  line: number;
  eventType: string | undefined;
}

const sources = SOURCE_DIRS.flatMap((dir) =>
  readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f).split(path.sep).join('/')),
);

/** Files importing `outboxPut` (under any local name) and every call of it. */
function scan(): { importers: string[]; emits: Emit[] } {
  const importers: string[] = [];
  const emits: Emit[] = [];
  for (const file of sources) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    if (!text.includes('outboxPut')) continue;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const localNames = new Set<string>();
    for (const stmt of sf.statements) {
      if (!ts.isImportDeclaration(stmt) || !ts.isStringLiteral(stmt.moduleSpecifier) || !/(^#db|\/db)\/outbox(\.ts)?$/.test(stmt.moduleSpecifier.text)) continue;
      const named = stmt.importClause?.namedBindings;
      if (named && ts.isNamedImports(named)) {
        for (const el of named.elements) if ((el.propertyName ?? el.name).text === 'outboxPut') localNames.add(el.name.text);
      }
    }
    if (file === 'shared/db/outbox.ts') localNames.add('outboxPut');
    if (!localNames.size) continue;
    if (file !== 'shared/db/outbox.ts') importers.push(file);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && localNames.has(node.expression.text)) {
        const arg = node.arguments[1];
        emits.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1, eventType: arg && ts.isStringLiteralLike(arg) ? arg.text : undefined });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { importers, emits };
}

const { importers, emits } = scan();

describe('event emitters', () => {
  it('only use cases import outboxPut', () => {
    expect(importers.length).toBeGreaterThan(5);
    expect(importers.filter((f) => !f.startsWith('shared/use-cases/'))).toEqual([]);
  });

  it('every call names its event type as a string literal of the catalog', () => {
    expect(emits.filter((e) => e.eventType === undefined || !Object.hasOwn(EVENT_CATALOG, e.eventType))).toEqual([]);
  });

  it('each event type is emitted in exactly one place', () => {
    const byType = new Map<string, string[]>();
    for (const e of emits) byType.set(e.eventType!, [...(byType.get(e.eventType!) ?? []), `${e.file}:${e.line}`]);
    const repeated = [...byType].filter(([, at]) => at.length > 1);
    expect(repeated).toEqual([]);
    const missing = (Object.keys(EVENT_CATALOG) as EventType[]).filter((t) => !byType.has(t));
    expect(missing.sort()).toEqual([...NOT_EMITTED].sort());
  });
});

describe('outboxPut', () => {
  afterEach(() => vi.unstubAllEnvs());

  it("takes only its event type's payload, and puts it in the envelope", () => {
    vi.stubEnv('TABLE_NAME', 'events-test');
    const actor = { orgId: 'org-1', userId: null };
    // @ts-expect-error another type's payload
    outboxPut(actor, 'task.completed', { transactionId: 't-1', previousStatus: 'Prospect', status: 'Closed' });
    // @ts-expect-error a field missing
    outboxPut(actor, 'transaction.status_changed', { transactionId: 't-1', status: 'Closed' });
    // @ts-expect-error a field the type does not have
    outboxPut(actor, 'transaction.status_changed', { transactionId: 't-1', previousStatus: 'Prospect', status: 'Closed', extra: 1 });

    const put = outboxPut(actor, 'transaction.status_changed', { transactionId: 't-1', previousStatus: 'Prospect', status: 'Closed' }, new Date('2026-11-26T12:00:00Z'));

    expect(put.Put).toMatchObject({ TableName: 'events-test', ConditionExpression: 'attribute_not_exists(PK)' });
    expect(put.Put.Item).toMatchObject({ PK: `ORG#org-1#EVENT#${put.Put.Item.envelope.eventId}`, SK: 'EVENT', entity: 'OutboxEvent', ttl: Date.parse('2026-12-03T12:00:00Z') / 1000 });
    expect(put.Put.Item.envelope).toMatchObject({ eventType: 'transaction.status_changed', organizationId: 'org-1', timestamp: '2026-11-26T12:00:00.000Z', data: { previousStatus: 'Prospect', status: 'Closed' } });
  });
});
