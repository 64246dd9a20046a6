/**
 * The README's commands run as written (issue 25): every ```bash / ```sh block of README.md and of the walk-throughs
 * it links (contacts, messaging, email templates, webhooks), in that order, runs with bash under
 * `set -euo pipefail` against `npm start` on random ports (`PORT`, `SMTP_PORT`), and the script exits 0. The
 * runtime and the blocks run in a scratch directory whose entries link to this checkout's, so `.data/` (credentials,
 * mail, texts) and the files a block writes are the scratch directory's own, as on a fresh clone; the environment is
 * a user's shell (PATH and HOME), not the test runner's. Blocks marked `<!-- readme-blocks: skip: … -->` are
 * counted and printed with their reasons (test/support/readme-blocks.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local/dynamodb-local';
import { scriptOf, shellBlocks, type ShellBlock } from '../support/readme-blocks.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The README, then its walk-throughs in the order its "More walk-throughs" names them. */
const FILES = ['README.md', 'docs/contacts.md', 'docs/messaging.md', 'docs/email-templates.md', 'docs/webhooks.md'];
/** Checkout entries the scratch directory does not link: data and build output a run writes. */
const NOT_LINKED = new Set(['.data', '.git', 'cdk.out', '.bench', 'reply.eml']);

const blocks: ShellBlock[] = FILES.flatMap((f) => shellBlocks(ROOT, f));
const runnable = blocks.filter((b) => !b.skip);
const skipped = blocks.filter((b) => b.skip);

let work: string;
let linked: string[] = [];
let server: ChildProcess | undefined;
let serverLog = '';
const env: Record<string, string> = { PATH: process.env.PATH!, HOME: process.env.HOME!, LANG: 'C.UTF-8' };

/** Resolves when `npm start` printed its API line; rejects when it exits first or after `ms`. */
function started(child: ChildProcess, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start not ready after ${ms} ms:\n${serverLog}`)), ms);
    const onData = (c: Buffer) => {
      serverLog += c.toString();
      if (/^API: /m.test(serverLog)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (serverLog += c.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}):\n${serverLog}`));
    });
  });
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'readme-blocks-'));
  for (const name of readdirSync(ROOT)) {
    if (NOT_LINKED.has(name)) continue;
    symlinkSync(path.join(ROOT, name), path.join(work, name));
    linked.push(path.join(work, name));
  }
  Object.assign(env, { PORT: String(await freePort()), SMTP_PORT: String(await freePort()) });
  // Its own process group, so the runtime and its children (DynamoDB Local) stop together.
  server = spawn('npm', ['start'], { cwd: work, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  await started(server, 180_000);
}, 200_000);

afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    process.kill(-server.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
  }
  // The links first (never followed), then the scratch directory with what the run wrote.
  for (const l of linked) unlinkSync(l);
  if (work) rmSync(work, { recursive: true, force: true });
}, 30_000);

describe('README commands, verbatim', () => {
  it('finds the blocks, and every skipped one says why', () => {
    console.log(`readme-blocks: ${blocks.length} blocks, ${runnable.length} run, ${skipped.length} skipped:\n${skipped.map((b) => `  ${b.file}:${b.line}  ${b.skip}`).join('\n')}`);
    expect(runnable.length).toBeGreaterThanOrEqual(8);
    expect(runnable.map((b) => b.file)).toEqual(expect.arrayContaining(FILES));
    for (const b of skipped) expect(b.skip!.length).toBeGreaterThan(10);
  });

  it('runs every other block in order with bash -euo pipefail against npm start, exit 0', async () => {
    const script = path.join(work, 'readme-blocks.sh');
    writeFileSync(script, scriptOf(runnable));
    const run = spawn('bash', [script], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    run.stdout.on('data', (c: Buffer) => (out += c.toString()));
    run.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => run.on('close', resolve));
    const reached = [...err.matchAll(/^>>> (.*)$/gm)].map((m) => m[1]);
    const report = `exit ${code} in block ${reached.at(-1)}\n--- stderr (tail)\n${err.slice(-4000)}\n--- stdout (tail)\n${out.slice(-4000)}`;
    expect(code, report).toBe(0);
    expect(reached, report).toEqual([...runnable.map((b) => `${b.file}:${b.line}`), 'done']);
  }, 400_000);
});
