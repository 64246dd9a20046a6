/**
 * What a preflight check is and returns (lib/preflight/runner.ts runs them, bin/preflight.ts prints them).
 */
import type { AwsClients } from './clients.ts';
import type { PreflightSettings } from './settings.ts';

/** `OK`: ready. `WARN`: deploys, but something will not work until the action is done. `FAIL`: fix before deploying. */
export type CheckStatus = 'OK' | 'WARN' | 'FAIL';

/** One check's verdict: a short finding (what is the case) and, unless nothing is to be done, the action. */
export interface CheckResult {
  readonly status: CheckStatus;
  readonly finding: string;
  readonly action?: string;
}

/** What every check reads: the region the stack deploys to, the app's settings from context, and the AWS clients. */
export interface PreflightEnv {
  /** e.g. `us-east-1`, as the SDK resolved it (`--region`, `AWS_REGION`, or the profile's). */
  readonly region: string;
  readonly settings: PreflightSettings;
  readonly clients: AwsClients;
}

/** A named check. `name` is the preflight line the README's Deploy steps refer to. */
export interface Check {
  readonly name: string;
  /** IAM actions the check calls, quoted when one is denied. */
  readonly permissions: readonly string[];
  /** @throws the SDK's error when a call fails (the runner turns it into a line) */
  run(env: PreflightEnv): Promise<CheckResult>;
}

/** Result builders: `action` is required for WARN and FAIL (a line that finds a problem says what to do). */
export const ok = (finding: string, action?: string): CheckResult => ({ status: 'OK', finding, action });
export const warn = (finding: string, action: string): CheckResult => ({ status: 'WARN', finding, action });
export const fail = (finding: string, action: string): CheckResult => ({ status: 'FAIL', finding, action });

/** The SDK error's name (`ResourceNotFoundException`, …), or undefined for anything else. */
export const errorName = (err: unknown): string | undefined =>
  err && typeof err === 'object' && 'name' in err && typeof err.name === 'string' ? err.name : undefined;
