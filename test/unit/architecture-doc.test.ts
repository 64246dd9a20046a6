/**
 * docs/architecture.md "Where each event type is emitted" stays true: one row per type of the catalog
 * (shared/events/catalog.ts), saying whether webhooks deliver it and naming the use case file whose `outboxPut`
 * call emits it (found by reading shared/use-cases/; test/unit/event-emitters.test.ts checks there is one).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVENT_CATALOG, type EventType } from '#events/catalog';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');

/** Event type → the use case files calling `outboxPut(…, '<type>', …)`. */
function emitters(): Map<string, string[]> {
  const byType = new Map<string, string[]>();
  const files = (readdirSync(path.join(ROOT, 'shared/use-cases'), { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => f.endsWith('.ts'));
  for (const f of files) {
    const file = `shared/use-cases/${f.split(path.sep).join('/')}`;
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    // The event type is the first string literal of the call (the actor before it holds none).
    for (const m of text.matchAll(/outboxPut\([^']*?'([a-z_.]+)'/g)) byType.set(m[1], [...(byType.get(m[1]) ?? []), file]);
  }
  return byType;
}

/** The table's row of `type` (its cells), or undefined. */
function rowOf(type: string): string[] | undefined {
  const line = doc.split('\n').find((l) => l.startsWith(`| \`${type}\` |`));
  return line?.split(' | ').map((c) => c.replace(/^\| |\s\|$/g, ''));
}

describe('docs/architecture.md event table', () => {
  const found = emitters();

  it('reads the emitters from the sources', () => {
    expect(found.get('transaction.status_changed')).toEqual(['shared/use-cases/change-transaction-status.ts']);
  });

  it('has one row per catalog type, with its webhook flag and the file that emits it', () => {
    const wrong: string[] = [];
    for (const type of Object.keys(EVENT_CATALOG) as EventType[]) {
      const row = rowOf(type);
      if (!row) {
        wrong.push(`${type}: no row`);
        continue;
      }
      const [, webhook, emittedIn] = row;
      if (webhook.startsWith('yes') !== EVENT_CATALOG[type].webhook) wrong.push(`${type}: webhook column "${webhook}"`);
      const files = found.get(type) ?? [];
      const named = files.length ? files.every((f) => emittedIn.includes(f)) : emittedIn.startsWith('not emitted');
      if (!named) wrong.push(`${type}: emitted in ${files.join(', ') || 'nothing'}, row says "${emittedIn}"`);
    }
    expect(wrong).toEqual([]);
  });
});
