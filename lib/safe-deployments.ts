/**
 * Safe deployments: every `ServiceFunction` is published as a version behind the alias `live`, and CodeDeploy shifts
 * the alias to a new version gradually, rolling back on its alarms (CodeDeploy User Guide, "Deployments on an AWS
 * Lambda compute platform"; CloudFormation `UpdatePolicy: CodeDeployLambdaAliasUpdate`).
 *
 * - `SAFE_DEPLOYMENT_STYLES` names the two traffic-shifting configurations: `api` functions (API groups, public-route
 *   workers) take a canary, 10 % of requests for 5 minutes then all: requests arrive continuously, so the API 5xx
 *   alarm (5-minute periods) sees the new version before it takes everything. `worker` functions (queue, stream, S3,
 *   SNS, scheduler and state-machine targets) shift linearly, 10 % more every minute over 10 minutes: their traffic is
 *   bursty, and a slower shift keeps most events on the known-good version while their error alarms evaluate; a bad
 *   version's events are retried, not lost. All-at-once would give the alarms no window to roll back in.
 * - One CodeDeploy application and one service role per stack (a nested stack gets its own), shared by its deployment
 *   groups; the role has AWS's `AWSCodeDeployRoleForLambdaLimited` policy (invoke hooks, update aliases).
 * - Context `safeDeployments=false` (dev stacks): no version, alias or CodeDeploy; integrations name the function.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import * as codedeploy from 'aws-cdk-lib/aws-codedeploy';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct, type IConstruct } from 'constructs';

/** Context key that turns safe deployments off (`false`); default on. */
export const SAFE_DEPLOYMENTS_CONTEXT = 'safeDeployments';

/** The alias every invoker names. */
export const LIVE_ALIAS = 'live';

/** How a function's new versions take traffic: `api` canary, `worker` linear (see the module comment). */
export type SafeDeploymentStyle = 'api' | 'worker';

/** The CodeDeploy configuration of each style. */
export const SAFE_DEPLOYMENT_STYLES: Readonly<Record<SafeDeploymentStyle, codedeploy.ILambdaDeploymentConfig>> = {
  api: codedeploy.LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  worker: codedeploy.LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_1MINUTE,
};

/**
 * Whether `scope`'s app publishes versions behind `live` with CodeDeploy: true unless context `safeDeployments` is
 * `false` (boolean or string).
 * @throws Error when the context value is neither true nor false
 */
export function safeDeploymentsEnabled(scope: IConstruct): boolean {
  const value = scope.node.tryGetContext(SAFE_DEPLOYMENTS_CONTEXT) as unknown;
  if (value === undefined || value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`context ${SAFE_DEPLOYMENTS_CONTEXT} must be true or false (got ${JSON.stringify(value)})`);
}

/** The CodeDeploy application and service role one stack's deployment groups share. */
export class SafeDeployments extends Construct {
  readonly application: codedeploy.LambdaApplication;
  readonly role: iam.Role;

  /** The stack's (or nested stack's) instance, created on first use. */
  static of(scope: IConstruct): SafeDeployments {
    const stack = Stack.of(scope);
    return (stack.node.tryFindChild('SafeDeployments') as SafeDeployments | undefined) ?? new SafeDeployments(stack, 'SafeDeployments');
  }

  private constructor(scope: Construct, id: string) {
    super(scope, id);
    this.application = new codedeploy.LambdaApplication(this, 'Application', {});
    this.role = new iam.Role(this, 'Role', {
      description: 'CodeDeploy shifts the live aliases of the service functions and rolls back on alarm (lib/safe-deployments.ts)',
      assumedBy: new iam.ServicePrincipal('codedeploy.amazonaws.com'),
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        "CodeDeploy's Lambda service role: the AWS managed policy lets it read and update Lambda aliases and invoke " +
        'lifecycle hooks named CodeDeployHook_*, which is what a Lambda deployment needs; AWS keeps it current.',
    });
  }
}
