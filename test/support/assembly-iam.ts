/**
 * Judges what an assembly runtime recorded (lib/local/assembly/aws-gateway.ts `AwsCall`) against the IAM of the
 * template it runs (test/support/iam/): each function's calls against its execution role and the target's resource
 * policy (with the KMS calls AWS makes for them), and each call a service made with a role it assumes (Step
 * Functions and Scheduler invoking functions) against that role. Calls made by service principals themselves (S3
 * notifications, API Gateway, SES receiving) are judged from the template by test/infra/iam-service-principals.test.ts.
 * The calls are also written to `.data/assembly-test/calls/<name>.json` for `npm run iam:unused`.
 */
import { expect } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AssemblyRuntime } from '#lib/local/assembly/runtime';
import { loadCloudAssembly } from '#lib/local/assembly/cloud-assembly';
import { asRole, DeployedTemplate, evaluateCalls, formatDenials, formatChecks, judgePending, type AwsCall } from './iam/index.ts';

/** Where recorded calls are kept between runs (read by bin/iam-unused.ts). */
export const CALLS_DIR = fileURLToPath(new URL('../../.data/assembly-test/calls/', import.meta.url));

/** The verdict on a runtime's calls. */
export interface RecordedVerdict {
  /** One line per refused call (function or role, action, resource, why). */
  denied: string[];
  /** Distinct allowed calls. */
  allowed: number;
  /** Functions that made at least one call. */
  functions: string[];
}

/**
 * @param name names the file the calls are written to (e.g. the test file's)
 */
export async function judgeRecordedCalls(rt: AssemblyRuntime, name: string): Promise<RecordedVerdict> {
  // The deployed naming without the runtime's local endpoints (queue URLs, the API's address).
  const { account, region, stackName, dir } = { ...rt.assembly.naming, dir: rt.assembly.dir };
  const t = new DeployedTemplate(loadCloudAssembly(dir, { account, region, stackName }));
  const byFunction: AwsCall[] = rt.calls.filter((c) => c.callerKind === 'function').map((c) => ({ functionLogicalId: c.caller, action: c.action, resource: c.resource, ...(c.context ? { context: c.context } : {}) }));
  const evaluation = await evaluateCalls(t, byFunction);
  const roleArn = (roleName: string) => `arn:${t.partition}:iam::${t.account}:role/${roleName}`;
  const byRole = rt.calls.filter((c) => c.callerKind === 'role').map((c) => asRole(t, `recorded ${c.caller}`, roleArn(c.caller), c.action, c.resource, c.context ?? {}));
  const roleChecks = await judgePending(t, byRole);
  mkdirSync(CALLS_DIR, { recursive: true });
  writeFileSync(path.join(CALLS_DIR, `${name}.json`), JSON.stringify({ cdkOut: rt.assembly.dir, stackName: rt.assembly.stackName, calls: byFunction }, null, 1));
  const refusedRoles = roleChecks.filter((c) => c.decision !== 'Allowed');
  return {
    denied: [...(evaluation.denied.length ? formatDenials(evaluation.denied).split('\n') : []), ...(refusedRoles.length ? formatChecks(refusedRoles).split('\n') : [])],
    allowed: evaluation.allowed.length + roleChecks.length - refusedRoles.length,
    functions: [...new Set(byFunction.map((c) => c.functionLogicalId))],
  };
}

/**
 * Asserts that every call `rt` recorded is allowed, by at least `minFunctions` functions (so the set ran), after
 * in-flight work settled. @param name as for `judgeRecordedCalls`
 */
export async function expectOnlyAllowedCalls(rt: AssemblyRuntime, name: string, minFunctions: number): Promise<void> {
  await rt.idle();
  const verdict = await judgeRecordedCalls(rt, name);
  expect(verdict.denied, verdict.denied.join('\n')).toEqual([]);
  expect(verdict.functions.length).toBeGreaterThanOrEqual(minFunctions);
  expect(verdict.allowed).toBeGreaterThan(20);
}
