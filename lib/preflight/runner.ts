/**
 * Runs the preflight checks and prints one line per check:
 *
 *   OK   cdk-bootstrap         bootstrap stack CDKToolkit in us-east-1 is bootstrap version 33, ≥ 6
 *   WARN ses-sending           SES in us-east-1 is in the sandbox: … → request production access: …
 *
 * Status, the check's name (the README's Deploy steps name these), the finding, and after `→` what to do. The
 * checks run concurrently; lines keep the order of `PREFLIGHT_CHECKS`. A check whose AWS call fails becomes a line
 * too: access denied is a WARN (could not check: grant the named actions), missing or expired credentials and any
 * other error a FAIL. The exit code is 1 when any line is FAIL, else 0.
 */
import { cdkBootstrap } from './cdk-bootstrap.ts';
import { errorName, fail, warn, type Check, type CheckResult, type PreflightEnv } from './check.ts';
import { lambdaConcurrency } from './lambda-concurrency.ts';
import { receiptRuleSet } from './receipt-rule-set.ts';
import { sesIdentity } from './ses-identity.ts';
import { sesReceiving } from './ses-receiving.ts';
import { sesSending } from './ses-sending.ts';
import { smsSandbox, smsSpendLimit } from './sms-account.ts';
import { smsOrigination } from './sms-origination.ts';

/** Every check, in the order of the README's Deploy steps. */
export const PREFLIGHT_CHECKS: readonly Check[] = [
  cdkBootstrap,
  sesSending,
  sesIdentity,
  sesReceiving,
  receiptRuleSet,
  smsSandbox,
  smsSpendLimit,
  smsOrigination,
  lambdaConcurrency,
];

/** A check's result with its name. */
export interface PreflightLine extends CheckResult {
  readonly name: string;
}

const DENIED = /AccessDenied|UnauthorizedOperation|NotAuthorized|Forbidden/;

/** The line for a check whose call threw `err`. */
export function errorResult(check: Check, err: unknown): CheckResult {
  const name = errorName(err) ?? 'Error';
  const message = err instanceof Error ? err.message : String(err);
  const httpStatus = (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
  if (name === 'CredentialsProviderError' || /Could not load credentials/i.test(message)) {
    return fail('no AWS credentials found', 'run with the deploying account\'s credentials: `aws sso login --profile <p>` and `AWS_PROFILE=<p> npm run preflight`, or `--profile <p>`');
  }
  if (/ExpiredToken|InvalidClientTokenId|UnrecognizedClient|SignatureDoesNotMatch/.test(name)) {
    return fail(`the AWS credentials were refused (${name})`, 'refresh them (e.g. `aws sso login`) and run preflight again');
  }
  if (DENIED.test(name) || httpStatus === 403) {
    return warn(`could not check: ${name}: ${message}`, `allow ${check.permissions.join(', ')} to these credentials, or check this step by hand (README, Deploy)`);
  }
  return fail(`could not check: ${name}: ${message}`, 'run preflight again; if it persists, check this step by hand (README, Deploy)');
}

/** Runs `checks` against `env`, concurrently; never throws. */
export async function runChecks(checks: readonly Check[], env: PreflightEnv): Promise<PreflightLine[]> {
  return Promise.all(
    checks.map(async (check) => {
      try {
        return { name: check.name, ...(await check.run(env)) };
      } catch (err) {
        return { name: check.name, ...errorResult(check, err) };
      }
    }),
  );
}

/** `STATUS name finding → action`, one line. */
export function formatLine(line: PreflightLine): string {
  return `${line.status.padEnd(4)} ${line.name.padEnd(20)} ${line.finding}${line.action ? ` → ${line.action}` : ''}`;
}

/** 1 when any line is FAIL, else 0. */
export const exitCodeOf = (lines: readonly PreflightLine[]): 0 | 1 => (lines.some((l) => l.status === 'FAIL') ? 1 : 0);

/**
 * Runs the checks, writes a header, one line per check and a count, and returns the exit code.
 * @param write receives each line without its newline (bin/preflight.ts: stdout)
 */
export async function runPreflight(checks: readonly Check[], env: PreflightEnv, write: (line: string) => void): Promise<0 | 1> {
  write(`preflight: stack ${env.settings.stackName} in ${env.region}`);
  const lines = await runChecks(checks, env);
  for (const line of lines) write(formatLine(line));
  const count = (status: string) => lines.filter((l) => l.status === status).length;
  write(`${count('OK')} OK, ${count('WARN')} WARN, ${count('FAIL')} FAIL`);
  return exitCodeOf(lines);
}
