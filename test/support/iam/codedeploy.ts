/**
 * CodeDeploy's part in safe deployments (lib/safe-deployments.ts): for each `AWS::CodeDeploy::DeploymentGroup`,
 * `codedeploy.amazonaws.com` may assume the group's service role, and the role may read and shift the `live` alias
 * of every function deployed through the group (`lambda:GetAlias`, `lambda:UpdateAlias`, the aliases whose
 * `UpdatePolicy.CodeDeployLambdaAliasUpdate` names the group) and read the alarms that roll it back
 * (`cloudwatch:DescribeAlarms`). CodeDeploy User Guide, "Create a service role for CodeDeploy" (Lambda).
 */
import { asRole, assumeRole, type Pending } from './requests.ts';
import type { DeployedTemplate } from './template.ts';

/** The checks for every deployment group of the template. */
export function codeDeployChecks(t: DeployedTemplate): Pending[] {
  const out: Pending[] = [];
  const aliases = t.ofType('AWS::Lambda::Alias').map((loc) => ({
    arn: t.ref(loc), // an alias's Ref is its ARN
    group: loc.template.resolve((loc.resource as { UpdatePolicy?: { CodeDeployLambdaAliasUpdate?: { DeploymentGroupName?: unknown } } }).UpdatePolicy?.CodeDeployLambdaAliasUpdate?.DeploymentGroupName ?? null) as string | null,
  }));
  for (const loc of t.ofType('AWS::CodeDeploy::DeploymentGroup')) {
    const p = t.props(loc);
    const group = t.ref(loc);
    const subject = `deployment group ${loc.logicalId}`;
    const groupArn = `arn:${t.partition}:codedeploy:${t.region}:${t.account}:deploymentgroup:${p.ApplicationName as string}/${group}`;
    out.push(assumeRole(t, subject, 'codedeploy.amazonaws.com', p.ServiceRoleArn, groupArn));
    for (const alias of aliases.filter((a) => a.group === group)) {
      out.push(asRole(t, subject, p.ServiceRoleArn, 'lambda:GetAlias', alias.arn), asRole(t, subject, p.ServiceRoleArn, 'lambda:UpdateAlias', alias.arn));
    }
    for (const alarm of (p.AlarmConfiguration?.Alarms ?? []) as Array<{ Name: string }>) {
      out.push(asRole(t, subject, p.ServiceRoleArn, 'cloudwatch:DescribeAlarms', `arn:${t.partition}:cloudwatch:${t.region}:${t.account}:alarm:${alarm.Name}`));
    }
  }
  return out;
}
