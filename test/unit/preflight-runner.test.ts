/**
 * The preflight runner (lib/preflight/runner.ts) and CLI (bin/preflight.ts): every check run against mocked AWS
 * clients, one printed line each in a fixed order, failed calls turned into lines (access denied: WARN naming the
 * actions to grant; missing credentials or anything else: FAIL), and the exit code (1 on any FAIL; 2 on bad context).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { DescribeAccountAttributesCommand, DescribePhoneNumbersCommand, DescribeSpendLimitsCommand, PinpointSMSVoiceV2Client } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { DescribeActiveReceiptRuleSetCommand, SESClient } from '@aws-sdk/client-ses';
import { GetAccountCommand, GetEmailIdentityCommand, NotFoundException, SESv2Client } from '@aws-sdk/client-sesv2';
import { SSMClient } from '@aws-sdk/client-ssm';
import { errorResult, exitCodeOf, formatLine, PREFLIGHT_CHECKS, runPreflight } from '#lib/preflight/runner';
import { lambdaConcurrency } from '#lib/preflight/lambda-concurrency';
import { runCli } from '#test/support/cli';
import { awsError, preflightEnv } from '#test/support/preflight';

const cfn = mockClient(CloudFormationClient);
const sesv2 = mockClient(SESv2Client);
const ses = mockClient(SESClient);
const lambda = mockClient(LambdaClient);
const sms = mockClient(PinpointSMSVoiceV2Client);
// SSM is read only when the bootstrap stack is missing; mocked so a stray call cannot reach the network.
const mocks = [cfn, mockClient(SSMClient), sesv2, ses, lambda, sms];
beforeEach(() => mocks.forEach((m) => m.reset()));
afterAll(() => mocks.forEach((m) => m.restore()));

const PHONE_ID = 'phone-0123456789abcdef0123456789abcdef';
const CONTEXT = { mailDomain: 'hillcountry.example', smsOriginationIdentity: PHONE_ID };

/** An account ready for a first deploy of `CONTEXT`. */
function readyAccount() {
  cfn.on(DescribeStacksCommand).resolves({ Stacks: [{ StackName: 'CDKToolkit', StackStatus: 'CREATE_COMPLETE', CreationTime: new Date(), Outputs: [{ OutputKey: 'BootstrapVersion', OutputValue: '30' }] }] });
  sesv2.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: true, SendQuota: { Max24HourSend: 50000, MaxSendRate: 14 } });
  sesv2.on(GetEmailIdentityCommand).rejects(new NotFoundException({ message: 'not found', $metadata: {} }));
  ses.on(DescribeActiveReceiptRuleSetCommand).resolves({});
  lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 1000, UnreservedConcurrentExecutions: 1000 } });
  sms.on(DescribeAccountAttributesCommand).resolves({ AccountAttributes: [{ Name: 'ACCOUNT_TIER', Value: 'PRODUCTION' }] });
  sms.on(DescribeSpendLimitsCommand).resolves({ SpendLimits: [{ Name: 'TEXT_MESSAGE_MONTHLY_SPEND_LIMIT', EnforcedLimit: 100, MaxLimit: 100, Overridden: true }] });
  sms.on(DescribePhoneNumbersCommand).resolves({
    PhoneNumbers: [{ PhoneNumberArn: 'arn', PhoneNumberId: PHONE_ID, PhoneNumber: '+18885550100', Status: 'ACTIVE', IsoCountryCode: 'US', MessageType: 'TRANSACTIONAL', NumberCapabilities: ['SMS'], NumberType: 'TOLL_FREE', MonthlyLeasingPrice: '2', TwoWayEnabled: true, SelfManagedOptOutsEnabled: false, OptOutListName: 'Default', DeletionProtectionEnabled: false, CreatedTimestamp: new Date() }],
  });
}

async function run(context = CONTEXT) {
  const lines: string[] = [];
  const code = await runPreflight(PREFLIGHT_CHECKS, preflightEnv(context), (l) => lines.push(l));
  return { code, lines };
}

describe('runPreflight', () => {
  it('prints a header, one line per check in the Deploy steps’ order and a count; exit 0 without a FAIL', async () => {
    readyAccount();
    const { code, lines } = await run();
    expect(code).toBe(0);
    expect(lines[0]).toBe('preflight: stack tcs-prod in us-east-1');
    expect(lines.slice(1, -1).map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'OK cdk-bootstrap',
      'OK ses-sending',
      'OK ses-identity',
      'OK ses-receiving',
      'OK ses-receipt-rule-set',
      'OK sms-sandbox',
      'OK sms-spend-limit',
      'OK sms-origination',
      'OK lambda-concurrency',
    ]);
    expect(lines.at(-1)).toBe('9 OK, 0 WARN, 0 FAIL');
  });

  it('exits 1 when a check fails, and still prints every other line', async () => {
    readyAccount();
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [{ StackName: 'CDKToolkit', StackStatus: 'CREATE_COMPLETE', CreationTime: new Date(), Outputs: [{ OutputKey: 'BootstrapVersion', OutputValue: '4' }] }] });
    lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 10, UnreservedConcurrentExecutions: 10 } });
    const { code, lines } = await run();
    expect(code).toBe(1);
    expect(lines).toHaveLength(11);
    expect(lines[1]).toMatch(/^FAIL cdk-bootstrap {8}bootstrap stack CDKToolkit in us-east-1 is bootstrap version 4; .* → upgrade it: run `npx cdk bootstrap --region us-east-1`/);
    expect(lines[9]).toMatch(/^WARN lambda-concurrency {3}quota 10 concurrent executions/);
    expect(lines.at(-1)).toBe('7 OK, 1 WARN, 1 FAIL');
  });

  it('turns a denied call into a WARN naming the actions to grant, and keeps exit 0', async () => {
    readyAccount();
    ses.on(DescribeActiveReceiptRuleSetCommand).rejects(awsError('AccessDenied', 'User is not authorized to perform: ses:DescribeActiveReceiptRuleSet', 403));
    const { code, lines } = await run();
    expect(code).toBe(0);
    expect(lines[5]).toBe(
      'WARN ses-receipt-rule-set could not check: AccessDenied: User is not authorized to perform: ses:DescribeActiveReceiptRuleSet → allow ses:DescribeActiveReceiptRuleSet to these credentials, or check this step by hand (README, Deploy)',
    );
  });
});

describe('errorResult', () => {
  it('fails on missing credentials and says how to provide them', () => {
    const result = errorResult(lambdaConcurrency, awsError('CredentialsProviderError', 'Could not load credentials from any providers'));
    expect(result.status).toBe('FAIL');
    expect(result.finding).toBe('no AWS credentials found');
    expect(result.action).toContain('AWS_PROFILE=<p> npm run preflight');
  });

  it('fails on refused credentials', () => {
    expect(errorResult(lambdaConcurrency, awsError('ExpiredTokenException', 'The security token included in the request is expired'))).toMatchObject({ status: 'FAIL', finding: 'the AWS credentials were refused (ExpiredTokenException)' });
  });

  it('treats any 403 as denied', () => {
    expect(errorResult(lambdaConcurrency, awsError('SomethingForbiddenish', 'no', 403))).toMatchObject({ status: 'WARN', action: 'allow lambda:GetAccountSettings to these credentials, or check this step by hand (README, Deploy)' });
  });

  it('fails on any other error, quoting it', () => {
    expect(errorResult(lambdaConcurrency, awsError('ServiceException', 'Internal error', 500))).toMatchObject({ status: 'FAIL', finding: 'could not check: ServiceException: Internal error' });
  });
});

describe('formatLine and exitCodeOf', () => {
  it('aligns status and name, and appends the action after an arrow', () => {
    expect(formatLine({ name: 'ses-sending', status: 'OK', finding: 'fine' })).toBe('OK   ses-sending          fine');
    expect(formatLine({ name: 'ses-sending', status: 'WARN', finding: 'sandbox', action: 'request access' })).toBe('WARN ses-sending          sandbox → request access');
  });

  it('is 1 only when a line fails', () => {
    expect(exitCodeOf([{ name: 'a', status: 'OK', finding: '' }, { name: 'b', status: 'WARN', finding: '', action: '' }])).toBe(0);
    expect(exitCodeOf([{ name: 'a', status: 'OK', finding: '' }, { name: 'b', status: 'FAIL', finding: '', action: '' }])).toBe(1);
  });
});

describe('npm run preflight', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tcs-preflight-'));

  it('exits 2 on context cdk synth would reject, before any AWS call', async () => {
    const { code, stderr, stdout } = await runCli('preflight', ['--region', 'us-east-1', '-c', 'mailDomain=not a domain'], dataDir);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('preflight: context mailDomain must be a domain name (got not a domain)');
    expect(stderr).toContain('usage: npm run preflight --');
  });
});

describe('documentation', () => {
  const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

  it('names every preflight line in the README’s Deploy steps and in docs/deploy.md, in the runner’s order', () => {
    const readme = read('README.md');
    const deploy = readme.slice(readme.indexOf('\n## Deploy\n'), readme.indexOf('\n## ', readme.indexOf('\n## Deploy\n') + 1));
    for (const doc of [deploy, read('docs/deploy.md')]) {
      const positions = PREFLIGHT_CHECKS.map((c) => doc.indexOf(`\`${c.name}\``));
      expect(positions.every((p) => p >= 0), PREFLIGHT_CHECKS.filter((_, i) => positions[i] < 0).map((c) => c.name).join(', ')).toBe(true);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
  });
});
