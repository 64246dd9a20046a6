/**
 * The cloud assembly the assembly tests run: `cdk synth` (the CLI, with esbuild bundling and cdk-nag, exactly as
 * `npm run synth`) into `.data/assembly-test/cdk.out`, with the context a test needs: a webhook retry schedule of 1 s, 2 s (to finish in seconds)
 * and a mail domain (so the stack receives mail). It is synthesized again only when a source file, package.json, cdk.json or
 * that context changed since the last synthesis (a stamp file beside it records both). `TCS_ASSEMBLY_REUSE=1` keeps
 * an existing one whatever changed (iterating on a test, not on the stack).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * Synthesizes the test assembly unless it is current.
 * @returns the assembly directory
 * @throws Error with the CLI's output when synthesis fails (a cdk-nag finding, a bundling error)
 */
export function ensureTestAssembly(): string {
  const outdir = path.join(ROOT, '.data', 'assembly-test', 'cdk.out');
  const stampFile = path.join(ROOT, '.data', 'assembly-test', 'stamp.json');
  const stamp = JSON.stringify({ newest: newestSource(), context: ASSEMBLY_TEST_CONTEXT });
  const present = existsSync(stampFile) && existsSync(path.join(outdir, 'manifest.json'));
  if (present && (process.env.TCS_ASSEMBLY_REUSE === '1' || readFileSync(stampFile, 'utf8') === stamp)) return outdir;
  const args = ['cdk', 'synth', '--no-notices', '-q', '-o', outdir, ...Object.entries(ASSEMBLY_TEST_CONTEXT).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  try {
    execFileSync('npx', args, { cwd: ROOT, env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`cdk synth failed:\n${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}`);
  }
  writeFileSync(stampFile, stamp);
  return outdir;
}
