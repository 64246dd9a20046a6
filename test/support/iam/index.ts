/**
 * Offline IAM evaluation of the synthesized stack (issue 22, "IAM evaluated offline"):
 * - ./template.ts: the assembly in the deployed naming (`DeployedTemplate.load(cdkOutDir)`, `physicalNameOf`);
 * - ./evaluate.ts: recorded calls judged against each function's role and the target's resource policy
 *   (`evaluateCalls`), grants no call used (`unusedGrants`);
 * - ./service-principals.ts: what SES, CloudWatch, Scheduler, S3, Step Functions, API Gateway, SNS and Lambda may
 *   do for the stack (`checkServicePrincipals`);
 * - ./iam-actions.ts: SDK commands to IAM actions, for the recorder (`iamActionsOf`).
 */
export { DEPLOYED, DeployedTemplate, editedCopy, physicalNameOf, type Located } from './template.ts';
export { evaluateCalls, formatDenials, unusedGrants, type AwsCall, type CallVerdict, type Evaluation, type UnusedGrant } from './evaluate.ts';
export { checkServicePrincipals, formatChecks, judgePending, summarizeDenials, type PrincipalCheck } from './service-principals.ts';
export { asRole } from './requests.ts';
export { iamActionsOf } from './iam-actions.ts';
export { functionPolicies, ResourcePolicies, rolePolicies } from './policies.ts';
