/**
 * A path cited in a comment or doc exists (../shared/STYLE.md rule 15). Scans README.md and docs/*.md (all their
 * text), and the comments of every .ts file under bin, lib, functions, shared and test (read with the TypeScript
 * parser, so strings and code are left out), for repo-relative paths: a top-level folder (`bin/ lib/ functions/
 * shared/ test/ docs/ bench/`), then a path ending in a known extension (`shared/db/outbox.ts`, `docs/runbook.md`)
 * or in `/` (a folder, `lib/local/`). Placeholders stop a path where they start (`functions/<group>/x.ts` is checked
 * as `functions/`). A path after `../` naming `shared/` is the team folder beside the repository
 * (`../shared/spec/api-v1.md`): allowed without a check, since it is not part of the repository. A document named
 * without a folder (`README.md`) must be at the root, so the team's style guide is cited as `../shared/STYLE.md`.
 * Relative Markdown links of the docs must resolve too, and an `#anchor` into a Markdown file of the repository
 * must name one of its headings.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CODE_DIRS = ['bin', 'lib', 'functions', 'shared', 'test'];
const EXTENSIONS = ['ts', 'md', 'json', 'jsonl', 'html', 'png', 'js', 'mjs', 'cjs', 'yaml', 'yml', 'txt', 'csv', 'pdf', 'eml', 'sh'];
/** Any number of `../`, then a top-level folder and path characters. Not after a word, `.`, `/`, `#` or `@`. */
const CITATION = /(?<![\w.\/#@-])((?:\.\.\/)*)((?:bin|lib|functions|shared|test|docs|bench)\/[\w.\/-]*)/g;
const KNOWN_FILE = new RegExp(`\\.(?:${EXTENSIONS.join('|')})$`);
/** A document named without a folder (`README.md`): it must be at the repository's root. */
const ROOT_DOC = /(?<![\w.\/-])([A-Z][A-Z_-]*\.md)\b/g;

interface Citation {
  file: string;
  line: number;
  cited: string;
}

/** Repo-relative paths of the files under `dir` ending in `ext` (no node_modules, no dot folders). */
function filesUnder(dir: string, ext: string): string[] {
  return (readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }) as string[])
    .map((f) => path.join(dir, f).split(path.sep).join('/'))
    .filter((f) => f.endsWith(ext) && !f.endsWith('.d.ts') && !/(^|\/)(node_modules|\.[^/]+)\//.test(f));
}

/** Line number (1-based) of offset `at` in `text`. */
const lineAt = (text: string, at: number) => text.slice(0, at).split('\n').length;

/** The citations of `text` (a whole doc, or one comment starting at `offset` of `source`). */
function citationsIn(file: string, text: string, source = text, offset = 0): Citation[] {
  const found: Citation[] = [];
  for (const m of text.matchAll(CITATION)) {
    const [, up, raw] = m;
    const cited = raw.replace(/[.]+$/, '');
    if (!cited.endsWith('/') && !KNOWN_FILE.test(cited)) continue;
    if (up && cited.startsWith('shared/')) continue; // the team folder beside the repository
    const resolved = up ? path.relative(ROOT, path.resolve(ROOT, path.dirname(file), up + cited)).split(path.sep).join('/') : cited;
    found.push({ file, line: lineAt(source, offset + m.index), cited: resolved });
  }
  for (const m of text.matchAll(ROOT_DOC)) found.push({ file, line: lineAt(source, offset + m.index), cited: m[1] });
  return found;
}

/** The comments of a TypeScript file, each with its offset. */
function commentsOf(file: string, text: string): { text: string; pos: number }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const seen = new Map<number, string>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node): void => {
    add(ts.getLeadingCommentRanges(text, node.getFullStart()));
    add(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  add(ts.getLeadingCommentRanges(text, 0));
  visit(sf);
  return [...seen].map(([pos, t]) => ({ pos, text: t }));
}

const docs = ['README.md', ...filesUnder('docs', '.md')];
const codeFiles = CODE_DIRS.flatMap((d) => filesUnder(d, '.ts'));

function allCitations(): Citation[] {
  const out: Citation[] = [];
  for (const file of docs) out.push(...citationsIn(file, readFileSync(path.join(ROOT, file), 'utf8')));
  for (const file of codeFiles) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    CITATION.lastIndex = 0;
    if (!CITATION.test(text)) continue;
    for (const c of commentsOf(file, text)) out.push(...citationsIn(file, c.text, text, c.pos));
  }
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to `-`. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

/** The anchors of a Markdown file's headings (outside code fences). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(path.join(ROOT, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) anchors.add(slug(line.replace(/^#+ /, '')));
  }
  return anchors;
}

describe('path citations', () => {
  const citations = allCitations();

  it('finds the citations it is meant to check', () => {
    const cited = new Set(citations.map((c) => c.cited));
    expect(citations.length).toBeGreaterThan(500);
    for (const known of ['shared/db/outbox.ts', 'shared/events/catalog.ts', 'docs/runbook.md', 'lib/local/']) expect(cited).toContain(known);
  });

  it('every cited path exists', () => {
    const missing = citations.filter((c) => !existsSync(path.join(ROOT, c.cited))).map((c) => `${c.file}:${c.line} ${c.cited}`);
    expect(missing).toEqual([]);
  });

  it('every relative Markdown link of the docs resolves, anchors included', () => {
    const broken: string[] = [];
    for (const file of docs) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [rel, anchor] = target.split('#');
        const resolved = rel ? path.relative(ROOT, path.resolve(ROOT, path.dirname(file), rel)).split(path.sep).join('/') : file;
        if (resolved.startsWith('../shared/')) continue; // the team folder beside the repository
        const where = `${file}:${lineAt(text, m.index)} ${target}`;
        if (!existsSync(path.join(ROOT, resolved))) broken.push(where);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
