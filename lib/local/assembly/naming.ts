/**
 * The deployed naming the assembly runtime gives a stack's resources: what `Ref` and `Fn::GetAtt` return in AWS,
 * with the physical names CloudFormation would generate made deterministic (`<stackName>-<LogicalId>`, cut to the
 * service's length limit; lower case for buckets). The account and region are fixed for a run (default
 * `123456789012`, `us-east-1`), so recorded calls carry real-looking ARNs that the offline IAM evaluation
 * (test/support/iam/) compares with the template's policies.
 * Return values per resource type: the CloudFormation resource reference's "Return values" sections.
 */

/** Account, region and stack name of a run. */
export interface DeployedNaming {
  account: string;
  region: string;
  stackName: string;
}

/** The default account and region of the assembly runtime. */
export const ASSEMBLY_ACCOUNT = '123456789012';
export const ASSEMBLY_REGION = 'us-east-1';

/** Length limits of generated names (function 64, queue 80, bucket 63, role 64, table 255). */
const LIMIT: Record<string, number> = {
  'AWS::Lambda::Function': 64,
  'AWS::SQS::Queue': 80,
  'AWS::S3::Bucket': 63,
  'AWS::IAM::Role': 64,
  'AWS::SNS::Topic': 256,
  'AWS::StepFunctions::StateMachine': 80,
};

/** The physical name CloudFormation would generate (explicit `*Name` properties win). */
export function physicalNameOf(naming: DeployedNaming, logicalId: string, type: string, props: Record<string, any> = {}): string {
  const explicit = props[NAME_PROPERTY[type] ?? ''];
  if (typeof explicit === 'string') return explicit;
  const name = `${naming.stackName}-${logicalId}`.slice(0, LIMIT[type] ?? 128);
  return type === 'AWS::S3::Bucket' ? name.toLowerCase() : name;
}

/** The property that names a resource when the template sets it. */
const NAME_PROPERTY: Record<string, string> = {
  'AWS::DynamoDB::Table': 'TableName',
  'AWS::Lambda::Function': 'FunctionName',
  'AWS::SQS::Queue': 'QueueName',
  'AWS::S3::Bucket': 'BucketName',
  'AWS::IAM::Role': 'RoleName',
  'AWS::SNS::Topic': 'TopicName',
  'AWS::StepFunctions::StateMachine': 'StateMachineName',
  'AWS::Scheduler::ScheduleGroup': 'Name',
  'AWS::SES::ConfigurationSet': 'Name',
  'AWS::SES::ReceiptRuleSet': 'RuleSetName',
  'AWS::SMSVOICE::ConfigurationSet': 'ConfigurationSetName',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::Lambda::Alias': 'Name',
};

/** A stable id from a logical id (KMS key ids, API ids), so reruns give the same ARNs. */
export function stableId(logicalId: string, length = 10): string {
  let h = 2166136261;
  for (const c of logicalId) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  const hex = (h.toString(16) + [...logicalId].map((c) => c.charCodeAt(0).toString(16)).join('')).toLowerCase();
  return hex.padEnd(length, '0').slice(0, length);
}

/** What `{ Ref: logicalId }` returns for `type`. */
export function refOf(n: DeployedNaming, logicalId: string, type: string, props: Record<string, any>): string {
  const name = physicalNameOf(n, logicalId, type, props);
  switch (type) {
    case 'AWS::SQS::Queue':
      return `https://sqs.${n.region}.amazonaws.com/${n.account}/${name}`;
    case 'AWS::SNS::Topic':
    case 'AWS::StepFunctions::StateMachine':
    case 'AWS::Lambda::Alias':
    case 'AWS::Lambda::Version':
    case 'AWS::CloudFormation::Stack':
      return arnOf(n, logicalId, type, 'Arn', props);
    case 'AWS::KMS::Key':
      return keyIdOf(logicalId);
    case 'AWS::ApiGatewayV2::Api':
    case 'AWS::ApiGateway::RestApi':
      return stableId(logicalId);
    default:
      return name;
  }
}

const keyIdOf = (logicalId: string): string => {
  const h = stableId(logicalId, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};

/**
 * What `{ 'Fn::GetAtt': [logicalId, attr] }` returns for `type`. An attribute not modelled here resolves to a
 * recognisable placeholder, `arn:aws:unknown:<region>:<account>:<type>/<name>/<attr>`, which no policy matches.
 */
export function arnOf(n: DeployedNaming, logicalId: string, type: string, attr: string, props: Record<string, any>): string {
  const name = physicalNameOf(n, logicalId, type, props);
  const { region, account } = n;
  const arn = (service: string, resource: string, sep = ':') => `arn:aws:${service}${sep}${region}:${account}:${resource}`;
  switch (`${type}.${attr}`) {
    case 'AWS::DynamoDB::Table.Arn':
      return arn('dynamodb', `table/${name}`);
    case 'AWS::DynamoDB::Table.StreamArn':
      return arn('dynamodb', `table/${name}/stream/2026-01-01T00:00:00.000`);
    case 'AWS::Lambda::Function.Arn':
      return arn('lambda', `function:${name}`);
    case 'AWS::Lambda::Alias.Arn': {
      const fn = props.FunctionName as string;
      return `${fn.startsWith('arn:') ? fn : arn('lambda', `function:${fn}`)}:${props.Name as string}`;
    }
    case 'AWS::Lambda::Version.Arn':
    case 'AWS::Lambda::Version.Version':
      return attr === 'Version' ? '1' : `${(props.FunctionName as string).startsWith('arn:') ? props.FunctionName : arn('lambda', `function:${props.FunctionName as string}`)}:1`;
    case 'AWS::SQS::Queue.Arn':
      return arn('sqs', name);
    case 'AWS::SQS::Queue.QueueName':
      return name;
    case 'AWS::SQS::Queue.QueueUrl':
      return refOf(n, logicalId, type, props);
    case 'AWS::S3::Bucket.Arn':
      return `arn:aws:s3:::${name}`;
    case 'AWS::S3::Bucket.RegionalDomainName':
      return `${name}.s3.${region}.amazonaws.com`;
    case 'AWS::S3::Bucket.DomainName':
      return `${name}.s3.amazonaws.com`;
    case 'AWS::IAM::Role.Arn':
      return `arn:aws:iam::${account}:role/${name}`;
    case 'AWS::KMS::Key.Arn':
      return arn('kms', `key/${keyIdOf(logicalId)}`);
    case 'AWS::KMS::Key.KeyId':
      return keyIdOf(logicalId);
    case 'AWS::StepFunctions::StateMachine.Arn':
      return arn('states', `stateMachine:${name}`);
    case 'AWS::StepFunctions::StateMachine.Name':
      return name;
    case 'AWS::SNS::Topic.TopicArn':
    case 'AWS::SNS::Topic.Arn':
      return arn('sns', name);
    case 'AWS::SNS::Topic.TopicName':
      return name;
    case 'AWS::Scheduler::ScheduleGroup.Arn':
      return arn('scheduler', `schedule-group/${name}`);
    case 'AWS::Logs::LogGroup.Arn':
      return arn('logs', `log-group:${name}:*`);
    case 'AWS::ApiGatewayV2::Api.ApiEndpoint':
      return `https://${stableId(logicalId)}.execute-api.${region}.amazonaws.com`;
    case 'AWS::ApiGatewayV2::Api.ApiId':
      return stableId(logicalId);
    case 'AWS::SMSVOICE::ConfigurationSet.Arn':
      return arn('sms-voice', `configuration-set/${name}`);
    case 'AWS::CloudFormation::Stack.Arn':
      return arn('cloudformation', `stack/${name}/00000000-0000-0000-0000-000000000000`);
    case 'AWS::ApiGateway::RestApi.RootResourceId':
      return stableId(`${logicalId}root`);
    default:
      return `${arn('unknown', `${type}/${name}`)}/${attr}`;
  }
}
