/**
 * Preflight settings (lib/preflight/settings.ts): context read as `cdk deploy` reads it (cdk.json, cdk.context.json,
 * `-c` pairs, in that order of precedence), the app's own validation, and defaults that stay equal to the app's.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STACK_NAME as APP_STACK_NAME } from '#lib/app';
import { DEFAULT_WEBHOOK_CONCURRENCY as APP_WEBHOOK_CONCURRENCY } from '#lib/webhook-pipeline';
import { DEFAULT_STACK_NAME, DEFAULT_WEBHOOK_CONCURRENCY, preflightSettings, readCdkContext } from '#lib/preflight/settings';

function project(cdkJson: unknown, cdkContextJson?: unknown): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tcs-preflight-ctx-'));
  writeFileSync(path.join(dir, 'cdk.json'), JSON.stringify(cdkJson));
  if (cdkContextJson) writeFileSync(path.join(dir, 'cdk.context.json'), JSON.stringify(cdkContextJson));
  return dir;
}

describe('readCdkContext', () => {
  it('layers cdk.json, cdk.context.json and -c pairs, later over earlier', () => {
    const dir = project(
      { app: 'npx tsx bin/app.ts', toolkitStackName: 'BrokerageToolkit', context: { stackName: 'tcs-dev', webhookConcurrency: 5, mailDomain: 'a.example' } },
      { webhookConcurrency: 6 },
    );
    const read = readCdkContext(dir, ['stackName=tcs-prod', 'publicBaseUrl=https://deals.example/x=y']);
    expect(read).toEqual({
      toolkitStackName: 'BrokerageToolkit',
      context: { stackName: 'tcs-prod', webhookConcurrency: 6, mailDomain: 'a.example', publicBaseUrl: 'https://deals.example/x=y' },
    });
  });

  it('reads the repository’s own cdk.json', () => {
    const { context } = readCdkContext(path.resolve(import.meta.dirname, '../..'));
    expect(context.stackName).toBe('tcs-dev');
  });

  it('rejects a -c argument without a value', () => {
    expect(() => readCdkContext(project({ context: {} }), ['mailDomain'])).toThrow('-c expects key=value (got mailDomain)');
  });
});

describe('preflightSettings', () => {
  it('defaults as the app does', () => {
    const settings = preflightSettings({ context: {} });
    expect(settings).toMatchObject({ stackName: 'tcs-dev', toolkitStackName: 'CDKToolkit', bootstrapQualifier: 'hnb659fds', webhookConcurrency: 10, webhookReservedConcurrency: undefined });
    expect(settings.messaging).toMatchObject({ mailFromAddress: 'deals@example.com', inboundMailDomain: 'reply.example.com', smsOptOutList: 'Default' });
  });

  it('keeps its defaults equal to lib/app.ts and lib/webhook-pipeline.ts', () => {
    expect(DEFAULT_STACK_NAME).toBe(APP_STACK_NAME);
    expect(DEFAULT_WEBHOOK_CONCURRENCY).toBe(APP_WEBHOOK_CONCURRENCY);
  });

  it('reads -c strings and cdk.json numbers alike', () => {
    const settings = preflightSettings({ context: { webhookConcurrency: '25', webhookReservedConcurrency: 30, mailDomain: 'HillCountry.example' }, toolkitStackName: 'T' });
    expect(settings).toMatchObject({ webhookConcurrency: 25, webhookReservedConcurrency: 30, toolkitStackName: 'T' });
    expect(settings.messaging).toMatchObject({ mailDomain: 'hillcountry.example', inboundMailDomain: 'reply.hillcountry.example' });
  });

  it('rejects what cdk synth would reject', () => {
    expect(() => preflightSettings({ context: { smsOriginationIdentity: '+15125550100' } })).toThrow(/context smsOriginationIdentity must be/);
    expect(() => preflightSettings({ context: { webhookReservedConcurrency: 'ten' } })).toThrow('context webhookReservedConcurrency must be a positive integer (got ten)');
  });
});
