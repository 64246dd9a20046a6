/**
 * Shared set-up of the preflight unit tests (test/unit/preflight-*.test.ts): an environment for one region built
 * from context as `npm run preflight` builds it, with real SDK clients (the tests mock them with aws-sdk-client-mock,
 * so nothing leaves the machine), and AWS-shaped errors.
 */
import { createClients } from '#lib/preflight/clients';
import type { PreflightEnv } from '#lib/preflight/check';
import { preflightSettings } from '#lib/preflight/settings';

export const REGION = 'us-east-1';
export const ACCOUNT = '111122223333';
/** The stack name every test deploys (context `stackName`). */
export const STACK = 'tcs-prod';

/** The environment `npm run preflight -c …` would build for `context` (over `stackName: tcs-prod`) in `region`. */
export function preflightEnv(context: Record<string, unknown> = {}, region = REGION): PreflightEnv {
  return { region, settings: preflightSettings({ context: { stackName: STACK, ...context } }), clients: createClients(region) };
}

/** An error shaped like the SDK's service exceptions: `name`, message and HTTP status in `$metadata`. */
export function awsError(name: string, message = name, httpStatusCode = 400): Error {
  return Object.assign(new Error(message), { name, $fault: 'client', $metadata: { httpStatusCode } });
}
