/**
 * The shell blocks of the README and the walk-throughs it links, as test/e2e/readme-blocks.test.ts runs them:
 * every fenced ```bash or ```sh block, in order, with the file and line it starts on. A block a machine cannot run
 * (a deploy, the test suite itself) carries a marker on the line right above its fence,
 * `<!-- readme-blocks: skip: <why> -->`, and is reported as skipped with that reason.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One shell block. */
export interface ShellBlock {
  /** Repository-relative file, e.g. `docs/messaging.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** Set when the block is marked to skip: the marker's reason. */
  skip?: string;
}

const OPEN = /^```(?:bash|sh)\s*$/;
const CLOSE = /^```\s*$/;
const SKIP = /^<!--\s*readme-blocks:\s*skip:\s*(.*?)\s*-->\s*$/;

/**
 * The shell blocks of one Markdown file.
 * @throws Error when a fence is left open, or a skip marker gives no reason or stands above no shell block
 */
export function shellBlocks(root: string, file: string): ShellBlock[] {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = SKIP.exec(lines[i]!);
    if (marker) {
      if (!marker[1]) throw new Error(`${file}:${i + 1}: a readme-blocks skip marker must say why`);
      if (!OPEN.test(lines[i + 1] ?? '')) throw new Error(`${file}:${i + 1}: a readme-blocks skip marker must stand right above a shell block`);
      continue;
    }
    if (!OPEN.test(lines[i]!)) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !CLOSE.test(lines[i]!); i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: the shell block is never closed`);
    const skip = SKIP.exec(lines[start - 1] ?? '')?.[1];
    blocks.push({ file, line: start + 1, code: body.join('\n'), ...(skip ? { skip } : {}) });
  }
  return blocks;
}

/**
 * One bash script running `blocks` in order under `set -euo pipefail`, each announced on stderr as
 * `>>> <file>:<line>` so a failure names the block it stopped in.
 */
export function scriptOf(blocks: readonly ShellBlock[]): string {
  const parts = blocks.map((b) => `echo '>>> ${b.file}:${b.line}' >&2\n${b.code}\n`);
  return ['set -euo pipefail', ...parts, "echo '>>> done' >&2", ''].join('\n');
}
