/**
 * The cloud assembly the assembly tests run: `cdk synth` (the CLI, with esbuild bundling and cdk-nag, exactly as
 * `npm run synth`) into `.data/assembly-test/cdk.out`, with the context a test needs: a webhook retry schedule of 1 s, 2 s (to finish in seconds)
 * and a mail domain (so the stack receives mail). It is synthesized again only when a source file, package.json, cdk.json or
 * that context changed since the last synthesis (a stamp file beside it records both). `TCS_ASSEMBLY_REUSE=1` keeps
 * an existing one whatever changed (iterating on a test, not on the stack).
 * The synthesis runs in the background of the test run (`startTestAssemblySynth`, from the assembly project's global
 * setup): vitest runs every project's global setup before any test file, so a synthesis awaited there (about 35 s on
 * 2 cores) held back the whole suite. The assembly files wait for it (`waitForTestAssembly`) when they start.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Context the assembly tests synthesize with (besides cdk.json's). */
export const ASSEMBLY_TEST_CONTEXT: Record<string, string> = { webhookRetrySchedule: '1,2', stackName: 'tcs-assembly-test', mailDomain: 'tcs-smoke.example' };

/** Newest modification time (ms) of the files the synthesized assembly is built from. */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(p);
      } else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const dir of ['bin', 'lib', 'functions', 'shared']) walk(path.join(ROOT, dir));
  for (const file of ['package.json', 'package-lock.json', 'cdk.json']) newest = Math.max(newest, statSync(path.join(ROOT, file)).mtimeMs);
  return newest;
}

const ASSEMBLY_ROOT = path.join(ROOT, '.data', 'assembly-test');
const STAMP_FILE = path.join(ASSEMBLY_ROOT, 'stamp.json');
/** Written instead of the stamp when the synthesis failed: the CLI's output. */
const ERROR_FILE = path.join(ASSEMBLY_ROOT, 'synth-error.txt');

/** A synthesis of the test assembly, started or found current. */
export interface TestAssemblySynth {
  /** The assembly directory (`cdk.out`). */
  outdir: string;
  /** The stamp the finished synthesis writes (what `waitForTestAssembly` waits for). */
  stamp: string;
  /** Settles when the synthesis has ended (never rejects: a failure is written to the error file). */
  done: Promise<void>;
}

/**
 * Starts synthesizing the test assembly in a child process unless it is current (then `done` is already settled).
 * The stamp is removed first, so no waiter takes a stale assembly for the new one.
 */
export function startTestAssemblySynth(): TestAssemblySynth {
  const outdir = path.join(ASSEMBLY_ROOT, 'cdk.out');
  const stamp = JSON.stringify({ newest: newestSource(), context: ASSEMBLY_TEST_CONTEXT });
  const present = existsSync(STAMP_FILE) && existsSync(path.join(outdir, 'manifest.json'));
  if (present && process.env.TCS_ASSEMBLY_REUSE === '1') return { outdir, stamp: readFileSync(STAMP_FILE, 'utf8'), done: Promise.resolve() };
  if (present && readFileSync(STAMP_FILE, 'utf8') === stamp) return { outdir, stamp, done: Promise.resolve() };
  mkdirSync(ASSEMBLY_ROOT, { recursive: true });
  rmSync(STAMP_FILE, { force: true });
  rmSync(ERROR_FILE, { force: true });
  const args = ['cdk', 'synth', '--no-notices', '-q', '-o', outdir, ...Object.entries(ASSEMBLY_TEST_CONTEXT).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const done = new Promise<void>((resolve) => {
    const child = spawn('npx', args, { cwd: ROOT, env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) => {
      writeFileSync(ERROR_FILE, `cdk synth did not start: ${err.message}`);
      resolve();
    });
    child.on('close', (code) => {
      if (code === 0) writeFileSync(STAMP_FILE, stamp);
      else writeFileSync(ERROR_FILE, `cdk synth failed (exit ${code}):\n${output}`);
      resolve();
    });
  });
  return { outdir, stamp, done };
}

/**
 * Waits until the run's synthesis of the test assembly has finished, polling its stamp file.
 * @param stamp what the synthesis writes when it succeeded (`TestAssemblySynth.stamp`)
 * @throws Error with the CLI's output when the synthesis failed; Error after `timeoutMs` (default 10 minutes)
 */
export async function waitForTestAssembly(stamp: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(STAMP_FILE) && readFileSync(STAMP_FILE, 'utf8') === stamp) return;
    if (existsSync(ERROR_FILE)) throw new Error(readFileSync(ERROR_FILE, 'utf8'));
    if (Date.now() > deadline) throw new Error(`the test assembly was not synthesized within ${timeoutMs / 1000} s (${STAMP_FILE})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
