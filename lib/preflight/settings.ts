/**
 * The deployment settings preflight checks against, read as `cdk deploy` reads them: cdk.json's `context`, then
 * cdk.context.json (CDK's own cache), then `-c key=value` arguments, each overriding the one before. Values from
 * `-c` are strings; cdk.json may give numbers. Messaging settings go through the app's own parser
 * (lib/messaging/settings.ts), so a value `cdk synth` would reject fails here too.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseMessagingSettings, type MessagingSettings } from '../messaging/settings.ts';

/** lib/app.ts `DEFAULT_STACK_NAME` (not imported: that module loads the whole stack); a unit test keeps them equal. */
export const DEFAULT_STACK_NAME = 'tcs-dev';
/** lib/webhook-pipeline.ts `DEFAULT_WEBHOOK_CONCURRENCY`, for the same reason and under the same test. */
export const DEFAULT_WEBHOOK_CONCURRENCY = 10;
/** The CDK CLI's default bootstrap stack name and qualifier (`cdk bootstrap --toolkit-stack-name`, `--qualifier`). */
export const DEFAULT_TOOLKIT_STACK_NAME = 'CDKToolkit';
export const DEFAULT_BOOTSTRAP_QUALIFIER = 'hnb659fds';

/** What the checks need to know about the deployment. */
export interface PreflightSettings {
  /** CloudFormation stack name (context `stackName`). */
  readonly stackName: string;
  /** cdk.json `toolkitStackName`, default `CDKToolkit`. */
  readonly toolkitStackName: string;
  /** context `@aws-cdk/core:bootstrapQualifier`, default `hnb659fds`. */
  readonly bootstrapQualifier: string;
  readonly messaging: MessagingSettings;
  /** Most webhook deliveries at once (context `webhookConcurrency`, default 10). */
  readonly webhookConcurrency: number;
  /** Reserved concurrency of the delivery function (context `webhookReservedConcurrency`), or undefined: none. */
  readonly webhookReservedConcurrency?: number;
}

/** cdk.json's and cdk.context.json's context, the CLI's `-c` pairs over them. */
export interface CdkContext {
  readonly context: Record<string, unknown>;
  /** cdk.json's top-level `toolkitStackName`, if any. */
  readonly toolkitStackName?: string;
}

/**
 * @param dir the directory holding cdk.json (the repository root)
 * @param pairs `key=value` strings as given to `-c`
 * @throws Error on a pair without `=`, or on cdk.json that is not JSON
 */
export function readCdkContext(dir: string, pairs: readonly string[] = []): CdkContext {
  const readJson = (file: string): Record<string, unknown> => {
    const full = path.join(dir, file);
    return existsSync(full) ? (JSON.parse(readFileSync(full, 'utf8')) as Record<string, unknown>) : {};
  };
  const cdkJson = readJson('cdk.json');
  const context: Record<string, unknown> = { ...(cdkJson.context as Record<string, unknown> | undefined), ...readJson('cdk.context.json') };
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new Error(`-c expects key=value (got ${pair})`);
    context[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const toolkitStackName = typeof cdkJson.toolkitStackName === 'string' ? cdkJson.toolkitStackName : undefined;
  return { context, toolkitStackName };
}

const integer = (key: string, value: unknown): number | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`context ${key} must be a positive integer (got ${String(value)})`);
  return n;
};

/**
 * The settings lib/app.ts would build from the same context.
 * @throws Error naming the context key when a value is malformed (as `cdk synth` would)
 */
export function preflightSettings({ context, toolkitStackName }: CdkContext): PreflightSettings {
  const get = (key: string): unknown => context[key];
  return {
    stackName: String(get('stackName') ?? DEFAULT_STACK_NAME),
    toolkitStackName: toolkitStackName ?? DEFAULT_TOOLKIT_STACK_NAME,
    bootstrapQualifier: String(get('@aws-cdk/core:bootstrapQualifier') ?? DEFAULT_BOOTSTRAP_QUALIFIER),
    messaging: parseMessagingSettings({
      mailDomain: get('mailDomain'),
      mailFromAddress: get('mailFromAddress'),
      inboundMailDomain: get('inboundMailDomain'),
      mailSenderIdentities: get('mailSenderIdentities'),
      smsOriginationIdentity: get('smsOriginationIdentity'),
      smsOptOutList: get('smsOptOutList'),
      publicBaseUrl: get('publicBaseUrl'),
    }),
    webhookConcurrency: integer('webhookConcurrency', get('webhookConcurrency')) ?? DEFAULT_WEBHOOK_CONCURRENCY,
    webhookReservedConcurrency: integer('webhookReservedConcurrency', get('webhookReservedConcurrency')),
  };
}
