/**
 * `PartnerApi`: the partner tier's own usage-plan-keyed stage (spec "Partner organizations"), in a nested stack so the
 * main stack stays well under CloudFormation's 500 resources.
 *
 * - An API Gateway REST API with one resource/method per partner operation (`/api/v1/orgs/*`, from the registry),
 *   each integrated with the `partner` group's function (which reads payload 1.0: shared/http/middleware/rest-payload-v1.ts).
 * - API keys come from a Lambda REQUEST authorizer (`apiKeySource: AUTHORIZER`): it admits a live `rsk_` key and
 *   returns its usage-plan API key as `usageIdentifierKey` (functions/partner-authorizer/handler.ts). Every method
 *   requires an API key, so the usage plan's throttle and quota meter each partner.
 * - Gateway Responses answer in the spec's envelope `{ error: { code, message } }` (401, 404, 429 with `Retry-After`).
 * - The app's own per-key rate limits still apply: the partner function authenticates and counts the key itself.
 * - Stage logging (execution errors and JSON access logs) needs API Gateway's account-level CloudWatch role, one per
 *   account and region, shared by every REST API there: context `apiGatewayCloudWatchRole` (`apiGatewayCloudWatchRoleOf`).
 *   This stack sets that role only when asked (`true`), and then retains it on destroy: deleting it would leave every
 *   REST API of the region logging through a deleted role. Without a role API Gateway refuses a stage with logging,
 *   so by default (unset) the stage logs nothing; `existing` turns logging on with the role the account already has
 *   (`aws apigateway get-account` shows `cloudwatchRoleArn`).
 */
import { Duration, NestedStack, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct, IConstruct } from 'constructs';
import type { RegisteredOperation } from '#api/operation';
import { ServiceFunction } from './service-function.ts';

export interface PartnerApiProps {
  /** The `partner` group's function. */
  readonly partnerFunction: lambda.IFunction;
  /** The partner operations (access `partner`) to route. */
  readonly operations: readonly RegisteredOperation[];
  readonly table: dynamodb.ITable;
  /** Absolute path of functions/partner-authorizer/handler.ts. */
  readonly authorizerEntry: string;
  /** Usage plan throttle: steady requests/second per API key. Default 20. */
  readonly rateLimit?: number;
  /** Usage plan throttle: burst per API key. Default 40. */
  readonly burstLimit?: number;
  /** Usage plan quota: requests per API key per day. Default 50,000. */
  readonly dailyQuota?: number;
}

/** Context key choosing the stage's logging and API Gateway's account CloudWatch role. */
export const API_GATEWAY_CLOUDWATCH_ROLE_CONTEXT = 'apiGatewayCloudWatchRole';

/**
 * `create` (context `true`): the stack creates the account's API Gateway CloudWatch role (retained on destroy) and
 * the stage logs; `existing`: the account already has one, the stage logs; `none` (unset or `false`): no stage logging.
 */
export type ApiGatewayCloudWatchRole = 'create' | 'existing' | 'none';

/**
 * Reads context `apiGatewayCloudWatchRole` (`true`, `existing`, `false`; default unset = `none`).
 * @throws Error on any other value
 */
export function apiGatewayCloudWatchRoleOf(scope: IConstruct): ApiGatewayCloudWatchRole {
  const value = scope.node.tryGetContext(API_GATEWAY_CLOUDWATCH_ROLE_CONTEXT) as unknown;
  if (value === undefined || value === false || value === 'false' || value === '') return 'none';
  if (value === true || value === 'true') return 'create';
  if (value === 'existing') return 'existing';
  throw new Error(`context ${API_GATEWAY_CLOUDWATCH_ROLE_CONTEXT} must be true, existing or false (got ${JSON.stringify(value)})`);
}

/** A Gateway Response in the spec's envelope. */
const envelope = (code: string, message: string) => ({ 'application/json': JSON.stringify({ error: { code, message } }) });

/** Gateway Responses of the stage: status, envelope code and message. */
export const PARTNER_GATEWAY_RESPONSES: readonly { type: apigw.ResponseType; status: string; code: string; message: string; retryAfter?: boolean }[] = [
  { type: apigw.ResponseType.UNAUTHORIZED, status: '401', code: 'unauthorized', message: 'Missing, invalid or revoked partner key.' },
  { type: apigw.ResponseType.ACCESS_DENIED, status: '401', code: 'unauthorized', message: 'Missing, invalid or revoked partner key.' },
  { type: apigw.ResponseType.INVALID_API_KEY, status: '401', code: 'unauthorized', message: 'The partner key has no usage plan key.' },
  { type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN, status: '404', code: 'not_found', message: 'No such route.' },
  { type: apigw.ResponseType.THROTTLED, status: '429', code: 'rate_limited', message: 'The partner rate limit is exceeded; retry after the window resets.', retryAfter: true },
  { type: apigw.ResponseType.QUOTA_EXCEEDED, status: '429', code: 'rate_limited', message: 'The daily partner quota is exhausted.', retryAfter: true },
  { type: apigw.ResponseType.REQUEST_TOO_LARGE, status: '422', code: 'validation_error', message: 'Request body too large.' },
  { type: apigw.ResponseType.DEFAULT_5XX, status: '500', code: 'internal_error', message: 'An unexpected error occurred.' },
];

export class PartnerApi extends NestedStack {
  readonly api: apigw.RestApi;
  readonly usagePlan: apigw.UsagePlan;
  readonly authorizerFunction: ServiceFunction;
  /** The stage's JSON access log (`jsonWithStandardFields`: `status` is a string), when the stage logs (context `apiGatewayCloudWatchRole`). */
  readonly accessLogs?: logs.LogGroup;

  constructor(scope: Construct, id: string, props: PartnerApiProps) {
    super(scope, id, { description: 'Partner tier: REST API stage keyed by usage plan (/api/v1/orgs/*)' });

    this.authorizerFunction = new ServiceFunction(this, 'Authorizer', {
      entry: props.authorizerEntry,
      serviceName: 'partner-authorizer',
      description: 'Partner stage Lambda authorizer (functions/partner-authorizer/handler.ts)',
      timeout: Duration.seconds(5),
      deployment: 'api',
    });
    this.authorizerFunction.bindTable(props.table, ['dynamodb:GetItem'], { indexes: false });

    const cloudWatchRole = apiGatewayCloudWatchRoleOf(this);
    const logging = cloudWatchRole !== 'none';
    const accessLogs = logging ? new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.RETAIN }) : undefined;
    this.accessLogs = accessLogs;
    this.api = new apigw.RestApi(this, 'Api', {
      restApiName: 'partner-api',
      description: 'Partner tier (/api/v1/orgs/*): rsk_ keys, usage plan',
      apiKeySourceType: apigw.ApiKeySourceType.AUTHORIZER,
      endpointTypes: [apigw.EndpointType.REGIONAL],
      cloudWatchRole: cloudWatchRole === 'create',
      // Account-wide: other REST APIs of the region log through it too.
      ...(cloudWatchRole === 'create' && { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN }),
      deployOptions: {
        stageName: 'partner',
        tracingEnabled: true,
        ...(accessLogs && {
          loggingLevel: apigw.MethodLoggingLevel.ERROR,
          accessLogDestination: new apigw.LogGroupLogDestination(accessLogs),
          accessLogFormat: apigw.AccessLogFormat.jsonWithStandardFields(),
        }),
        throttlingRateLimit: 100,
        throttlingBurstLimit: 200,
      },
    });

    const authorizer = new apigw.RequestAuthorizer(this, 'KeyAuthorizer', {
      handler: this.authorizerFunction.live,
      identitySources: [apigw.IdentitySource.header('Authorization')],
      // No cache: a revoked key is refused on its next request.
      resultsCacheTtl: Duration.seconds(0),
    });
    // One permission for every method (not one per method).
    const integration = new apigw.LambdaIntegration(props.partnerFunction, { proxy: true, scopePermissionToMethod: false });

    for (const op of props.operations) {
      if (op.access !== 'partner') continue;
      const resource = this.api.root.resourceForPath(op.path);
      resource.addMethod(op.method, integration, { authorizer, authorizationType: apigw.AuthorizationType.CUSTOM, apiKeyRequired: true, operationName: op.operationId });
    }

    for (const r of PARTNER_GATEWAY_RESPONSES) {
      this.api.addGatewayResponse(`Response${r.type.responseType}`, {
        type: r.type,
        statusCode: r.status,
        templates: envelope(r.code, r.message),
        responseHeaders: { 'Content-Type': "'application/json'", ...(r.retryAfter ? { 'Retry-After': "'60'" } : {}) },
      });
    }

    this.usagePlan = this.api.addUsagePlan('UsagePlan', {
      name: 'partner',
      description: 'Per partner key (its usage-plan API key comes from the authorizer)',
      throttle: { rateLimit: props.rateLimit ?? 20, burstLimit: props.burstLimit ?? 40 },
      quota: { limit: props.dailyQuota ?? 50_000, period: apigw.Period.DAY },
      apiStages: [{ api: this.api, stage: this.api.deploymentStage }],
    });

    Validations.of(this.api).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason: 'Requests are validated in the partner function with the operation zod schemas (422 in the spec envelope with per-field messages), which API Gateway models cannot express.',
      },
      {
        id: 'AwsSolutions-APIG3',
        reason: 'Callers are partner systems with rsk_ keys; the usage plan throttles and caps each key and the stage is throttled as a whole. A WAF web ACL is a per-deployment cost decision (README "Deploy").',
      },
      {
        id: 'AwsSolutions-COG4',
        reason: 'Partner keys are rsk_ API keys, not Cognito users: a Lambda REQUEST authorizer admits them and names their usage-plan key.',
      },
    );
    if (cloudWatchRole === 'create') {
      Validations.of(this.api).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason: "API Gateway's account-level CloudWatch role uses the AWS managed AmazonAPIGatewayPushToCloudWatchLogs policy, which is scoped to log delivery.",
      });
    }
    if (!logging) {
      const why =
        "Stage logging needs API Gateway's account-level CloudWatch role, which this stack sets only by opt-in " +
        '(context apiGatewayCloudWatchRole=true, or =existing when the account has one): it is shared by every REST API of the region. ' +
        'The partner function logs every request itself (Powertools, with the request id).';
      Validations.of(this.api).acknowledge({ id: 'AwsSolutions-APIG1', reason: why }, { id: 'AwsSolutions-APIG6', reason: why });
    }
  }
}
