/**
 * Preflight line `cdk-bootstrap`: the region is bootstrapped for CDK, recently enough for this app.
 *
 * Reads the bootstrap stack (`CDKToolkit` unless cdk.json names another) and its `BootstrapVersion` output; when
 * that stack is absent (bootstrapped under another name), the version parameter the deploy itself checks,
 * `/cdk-bootstrap/<qualifier>/version` in SSM.
 *
 * Minimum: version 6. aws-cdk-lib 2.276's default synthesizer writes `requiresBootstrapStackVersion: 6` into the
 * cloud assembly (cdk.out/manifest.json) for the stack and its assets: the deploy, file- and image-publishing roles
 * it assumes first appeared in bootstrap version 6, and the template's `CheckBootstrapVersion` rule rejects
 * versions 1–5. (Version 8 is needed only for context lookups, which this app does not make.) Newer versions
 * add fixes; `CURRENT_BOOTSTRAP_VERSION` is the one the pinned CLI (aws-cdk 2.1148.1) installs.
 */
import { DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { errorName, fail, ok, warn, type Check, type CheckResult } from './check.ts';

/** Lowest bootstrap version the synthesized stack accepts (its manifest's `requiresBootstrapStackVersion`). */
export const MIN_BOOTSTRAP_VERSION = 6;
/** `CdkBootstrapVersion` of node_modules/aws-cdk/lib/api/bootstrap/bootstrap-template.yaml (a unit test reads it). */
export const CURRENT_BOOTSTRAP_VERSION = 33;

const bootstrapCommand = (region: string) => `run \`npx cdk bootstrap --region ${region}\` with these credentials (once per account and region)`;

/** `ROLLBACK_COMPLETE`, `*_FAILED`, deleting: the bootstrap stack cannot serve a deploy. */
const BROKEN = /^(ROLLBACK_COMPLETE|DELETE_.*|.*_FAILED)$/;

function verdict(version: number, source: string, region: string): CheckResult {
  if (!Number.isInteger(version)) return fail(`${source} has no readable bootstrap version`, bootstrapCommand(region));
  if (version < MIN_BOOTSTRAP_VERSION) {
    return fail(
      `${source} is bootstrap version ${version}; this app needs ≥ ${MIN_BOOTSTRAP_VERSION} (deploy and asset-publishing roles)`,
      `upgrade it: ${bootstrapCommand(region)}`,
    );
  }
  const newer = version < CURRENT_BOOTSTRAP_VERSION ? ` (the pinned CLI installs ${CURRENT_BOOTSTRAP_VERSION}; \`npx cdk bootstrap\` upgrades it)` : '';
  return ok(`${source} is bootstrap version ${version}, ≥ ${MIN_BOOTSTRAP_VERSION}${newer}`);
}

export const cdkBootstrap: Check = {
  name: 'cdk-bootstrap',
  permissions: ['cloudformation:DescribeStacks', 'ssm:GetParameter'],
  async run({ region, settings, clients }) {
    const name = settings.toolkitStackName;
    let stack: Stack | undefined;
    try {
      stack = (await clients.cloudFormation.send(new DescribeStacksCommand({ StackName: name }))).Stacks?.[0];
    } catch (err) {
      // CloudFormation answers a missing stack with a ValidationError ("Stack with id … does not exist").
      if (errorName(err) !== 'ValidationError') throw err;
    }
    if (stack) {
      const status = stack.StackStatus ?? 'UNKNOWN';
      if (BROKEN.test(status)) {
        return fail(`bootstrap stack ${name} in ${region} is ${status}`, `delete it (\`aws cloudformation delete-stack --stack-name ${name}\`; empty its asset bucket first), then ${bootstrapCommand(region)}`);
      }
      if (status.endsWith('_IN_PROGRESS')) return warn(`bootstrap stack ${name} in ${region} is ${status}`, 'wait for it to finish, then run preflight again');
      const output = stack.Outputs?.find((o) => o.OutputKey === 'BootstrapVersion')?.OutputValue;
      return verdict(Number(output), `bootstrap stack ${name} in ${region}`, region);
    }
    const parameter = `/cdk-bootstrap/${settings.bootstrapQualifier}/version`;
    try {
      const { Parameter } = await clients.ssm.send(new GetParameterCommand({ Name: parameter }));
      return verdict(Number(Parameter?.Value), `SSM parameter ${parameter} (no stack ${name}: bootstrapped under another name)`, region);
    } catch (err) {
      if (errorName(err) !== 'ParameterNotFound') throw err;
    }
    return fail(`${region} is not bootstrapped for CDK (no stack ${name}, no parameter ${parameter})`, bootstrapCommand(region));
  },
};
