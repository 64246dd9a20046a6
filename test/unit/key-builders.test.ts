/**
 * Keys come only from key builders (../shared/STYLE.md rule 12): no source file but shared/db/keys.ts spells a
 * partition-key prefix that keys.ts defines (`ORG#`, `APIKEY#`, `PARTNER#`, …) in a string literal, template or
 * regular expression; comments may. The prefixes are read from keys.ts itself, so a new builder's prefix is
 * guarded without editing this test. Also pins the key values of builders moved into keys.ts, which name items
 * already stored in deployed tables.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { commsPk, contactEmailPk, gsi1, gsi2, partnerPk, scheduledMessageIdOfPk, scheduledMessagePk, threadPk, txnPk } from '#db/keys';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEYS_FILE = 'shared/db/keys.ts';
/** The code that ships or runs the service. */
const SOURCE_DIRS = ['shared', 'functions', 'lib', 'bin'];

/** Text of every string literal, template part and regular expression of a source file, with its line. */
function literals(file: string, source = readFileSync(path.join(ROOT, file), 'utf8')): { text: string; line: number }[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const out: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node) || ts.isRegularExpressionLiteral(node)) {
      out.push({ text: node.text, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Leading `NAME#` prefixes of the keys.ts builders (a template or regex that starts with capitals and `#`). */
function keyPrefixes(): string[] {
  const found = literals(KEYS_FILE).map(({ text }) => /^\/?\^?([A-Z][A-Z0-9]*#)/.exec(text)?.[1]).filter((p): p is string => !!p);
  return [...new Set(found)].sort();
}

const sources = SOURCE_DIRS.flatMap((dir) =>
  readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f).split(path.sep).join('/')),
).filter((f) => f !== KEYS_FILE);

const PREFIXES = keyPrefixes();
// A prefix at the start of a literal, or after `#`/`^` (a key assembled from parts, or a regular expression).
const SPELLED = new RegExp(`(^|[#^])(${PREFIXES.join('|')})`);

/** `file:line text` of each literal of a file that spells one of the prefixes. */
function offenders(file: string, source?: string): string[] {
  const text = source ?? readFileSync(path.join(ROOT, file), 'utf8');
  if (!PREFIXES.some((p) => text.includes(p))) return [];
  return literals(file, text).filter(({ text }) => SPELLED.test(text)).map(({ text, line }) => `${file}:${line} ${text}`);
}

describe('key builders own the key prefixes', () => {
  it('reads the prefixes keys.ts defines', () => {
    expect(PREFIXES).toEqual(expect.arrayContaining(['ORG#', 'APIKEY#', 'PARTNER#', 'USEREMAIL#', 'OAUTHCLIENT#']));
  });

  it('finds no prefix spelled outside keys.ts', () => {
    expect(sources.flatMap((file) => offenders(file))).toEqual([]);
  });

  it('flags a key in a template, a string or a regular expression, not in a comment', () => {
    const snippet = [
      '// PK = ORG#<orgId>#X#<id>',
      'const a = (o: string) => `ORG#${o}#X`;',
      "const b = 'PARTNER#' + id;",
      'const c = /^ORG#[^#]+#X#(.+)$/;',
      "const d = { SK: 'TASK#1', e: 'APIKEY' };",
    ].join('\n');
    expect(offenders('snippet.ts', snippet).map((o) => o.split(' ')[0])).toEqual(['snippet.ts:2', 'snippet.ts:3', 'snippet.ts:4']);
  });
});

describe('key values of the moved builders', () => {
  it('keeps the stored formats', () => {
    expect(commsPk('o1', 't1')).toBe('ORG#o1#TXN#t1#COMMS');
    expect(commsPk('o1', 't1').startsWith(txnPk('o1', 't1'))).toBe(true);
    expect(contactEmailPk('o1', 'Ann@Example.COM')).toBe('ORG#o1#CONTACTEMAIL#ann@example.com');
    expect(gsi1.dealDocuments('o1', 't1')).toBe('ORG#o1#TXN#t1#DOCS');
    expect(gsi1.threadMessages('o1', 'th1')).toBe(threadPk('o1', 'th1'));
    expect(gsi2.dealFormSubmissions('o1', 't1')).toBe('ORG#o1#TXN#t1#FORMSUBS');
    expect(partnerPk('p1')).toBe('PARTNER#p1');
  });

  it('reads a scheduled message id back from its partition key', () => {
    expect(scheduledMessageIdOfPk(scheduledMessagePk('o1', 'm1'))).toBe('m1');
    expect(scheduledMessageIdOfPk(threadPk('o1', 'm1'))).toBeUndefined();
    expect(scheduledMessageIdOfPk(`${scheduledMessagePk('o1', 'm1')}#X`)).toBeUndefined();
  });
});
