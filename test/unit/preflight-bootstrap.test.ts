/**
 * Preflight line `cdk-bootstrap` (lib/preflight/cdk-bootstrap.ts) against mocked CloudFormation and SSM: the bootstrap
 * stack's version output, the SSM fallback, a broken or missing bootstrap, and that the minimum and current versions
 * match what aws-cdk-lib's synthesizer requires and what the pinned CLI installs.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { GetParameterCommand, ParameterNotFound, SSMClient } from '@aws-sdk/client-ssm';
import { App, Stack as CdkStack, aws_sns as sns } from 'aws-cdk-lib';
import { cdkBootstrap, CURRENT_BOOTSTRAP_VERSION, MIN_BOOTSTRAP_VERSION } from '#lib/preflight/cdk-bootstrap';
import { awsError, preflightEnv } from '#test/support/preflight';

const cfn = mockClient(CloudFormationClient);
const ssm = mockClient(SSMClient);
beforeEach(() => {
  cfn.reset();
  ssm.reset();
});
afterAll(() => {
  cfn.restore();
  ssm.restore();
});

const toolkit = (version: string | undefined, status: Stack['StackStatus'] = 'UPDATE_COMPLETE'): Stack => ({
  StackName: 'CDKToolkit',
  StackStatus: status,
  CreationTime: new Date('2026-01-05T00:00:00Z'),
  Outputs: version === undefined ? [{ OutputKey: 'BucketName', OutputValue: 'cdk-hnb659fds-assets' }] : [{ OutputKey: 'BootstrapVersion', OutputValue: version }],
});
const missingStack = awsError('ValidationError', 'Stack with id CDKToolkit does not exist');

describe('cdk-bootstrap', () => {
  it('is OK on a current bootstrap stack, reading the CDKToolkit stack only', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [toolkit(String(CURRENT_BOOTSTRAP_VERSION))] });
    const result = await cdkBootstrap.run(preflightEnv());
    expect(result).toEqual({ status: 'OK', finding: `bootstrap stack CDKToolkit in us-east-1 is bootstrap version ${CURRENT_BOOTSTRAP_VERSION}, ≥ 6`, action: undefined });
    expect(cfn).toHaveReceivedCommandExactlyOnceWith(DescribeStacksCommand, { StackName: 'CDKToolkit' });
    expect(ssm).not.toHaveReceivedAnyCommand();
  });

  it('is OK at the minimum, and says the CLI would upgrade it', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [toolkit('6')] });
    const result = await cdkBootstrap.run(preflightEnv());
    expect(result.status).toBe('OK');
    expect(result.finding).toContain(`version 6, ≥ 6 (the pinned CLI installs ${CURRENT_BOOTSTRAP_VERSION}; \`npx cdk bootstrap\` upgrades it)`);
  });

  it('fails below version 6 and says how to upgrade', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [toolkit('5')] });
    const result = await cdkBootstrap.run(preflightEnv());
    expect(result).toEqual({
      status: 'FAIL',
      finding: 'bootstrap stack CDKToolkit in us-east-1 is bootstrap version 5; this app needs ≥ 6 (deploy and asset-publishing roles)',
      action: 'upgrade it: run `npx cdk bootstrap --region us-east-1` with these credentials (once per account and region)',
    });
  });

  it('fails on a stack without a version output', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [toolkit(undefined)] });
    expect(await cdkBootstrap.run(preflightEnv())).toMatchObject({ status: 'FAIL', finding: 'bootstrap stack CDKToolkit in us-east-1 has no readable bootstrap version' });
  });

  it('fails on a rolled-back bootstrap stack and says to delete it first', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [toolkit('33', 'ROLLBACK_COMPLETE')] });
    const result = await cdkBootstrap.run(preflightEnv());
    expect(result.status).toBe('FAIL');
    expect(result.finding).toBe('bootstrap stack CDKToolkit in us-east-1 is ROLLBACK_COMPLETE');
    expect(result.action).toContain('aws cloudformation delete-stack --stack-name CDKToolkit');
  });

  it('warns while the bootstrap stack is updating', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [toolkit('33', 'UPDATE_IN_PROGRESS')] });
    expect(await cdkBootstrap.run(preflightEnv())).toMatchObject({ status: 'WARN', action: 'wait for it to finish, then run preflight again' });
  });

  it('reads the SSM version parameter of the qualifier when the stack has another name', async () => {
    cfn.on(DescribeStacksCommand).rejects(missingStack);
    ssm.on(GetParameterCommand).resolves({ Parameter: { Name: '/cdk-bootstrap/brokerq1/version', Value: '27' } });
    const result = await cdkBootstrap.run(preflightEnv({ '@aws-cdk/core:bootstrapQualifier': 'brokerq1' }));
    expect(ssm).toHaveReceivedCommandExactlyOnceWith(GetParameterCommand, { Name: '/cdk-bootstrap/brokerq1/version' });
    expect(result.status).toBe('OK');
    expect(result.finding).toContain('SSM parameter /cdk-bootstrap/brokerq1/version (no stack CDKToolkit: bootstrapped under another name) is bootstrap version 27');
  });

  it('fails when neither the stack nor the parameter exists, naming the bootstrap command', async () => {
    cfn.on(DescribeStacksCommand).rejects(missingStack);
    ssm.on(GetParameterCommand).rejects(new ParameterNotFound({ message: 'not found', $metadata: {} }));
    expect(await cdkBootstrap.run(preflightEnv({}, 'us-west-2'))).toEqual({
      status: 'FAIL',
      finding: 'us-west-2 is not bootstrapped for CDK (no stack CDKToolkit, no parameter /cdk-bootstrap/hnb659fds/version)',
      action: 'run `npx cdk bootstrap --region us-west-2` with these credentials (once per account and region)',
    });
  });

  it('passes other CloudFormation errors to the runner', async () => {
    cfn.on(DescribeStacksCommand).rejects(awsError('AccessDenied', 'not authorized', 403));
    await expect(cdkBootstrap.run(preflightEnv())).rejects.toThrow('not authorized');
    expect(ssm).not.toHaveReceivedAnyCommand();
  });
});

describe('bootstrap versions', () => {
  it('requires what aws-cdk-lib’s default synthesizer writes into the cloud assembly', () => {
    const app = new App();
    const stack = new CdkStack(app, 'Probe');
    new sns.Topic(stack, 'Topic');
    const artifact = app.synth().getStackArtifact(stack.artifactId);
    expect(artifact.requiresBootstrapStackVersion).toBe(MIN_BOOTSTRAP_VERSION);
  });

  it('knows the version the pinned CLI’s bootstrap template installs', () => {
    const template = readFileSync(new URL('../../node_modules/aws-cdk/lib/api/bootstrap/bootstrap-template.yaml', import.meta.url), 'utf8');
    const version = /CdkBootstrapVersion:[\s\S]*?Value: '(\d+)'/.exec(template)?.[1];
    expect(Number(version)).toBe(CURRENT_BOOTSTRAP_VERSION);
  });
});
