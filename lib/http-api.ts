/**
 * `ServiceHttpApi`: the API Gateway HTTP API, one route per operation of the registry (`lib/registry.ts`),
 * each integrated with its group's Lambda, plus `$default` → the `meta` function (unknown routes answer 404 in
 * the JSON error envelope instead of API Gateway's own `{"message":"Not Found"}`), plus one route per public route
 * (`lib/public-routes.ts`, e.g. `GET /l/{token}`), integrated with its worker's function. The routes, integrations and
 * their Lambda permissions are a nested stack (`routesStack`); each integration names the function it is given (a
 * `ServiceFunction.live` alias).
 */
import { Duration, NestedStack, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RegisteredOperation } from '#api/operation';
import type { LambdaGroup } from '#api/types';
import type { PublicRoute } from './public-routes.ts';
import { CORS_POLICY, routeThrottleOf, STAGE_THROTTLE } from './edge-settings.ts';

/** The group whose function serves `$default` (see functions/meta/handler.ts). */
export const DEFAULT_ROUTE_GROUP: LambdaGroup = 'meta';

/** Inputs of `ServiceHttpApi`: the functions, and stage-wide throttling/log settings. */
export interface ServiceHttpApiProps {
  /** The function serving each group; must cover every group in `operations` and `meta`. */
  readonly functionOf: (group: LambdaGroup) => lambda.IFunction;
  /** Operations to route (lib/registry.ts), one route each. */
  readonly operations: readonly RegisteredOperation[];
  /** Routes opened without credentials (lib/public-routes.ts), one route each. Default none. */
  readonly publicRoutes?: readonly PublicRoute[];
  /** The function serving each public route's worker; must cover every worker of `publicRoutes`. */
  readonly publicFunctionOf?: (worker: PublicRoute['worker']) => lambda.IFunction;
  /** Stage-wide token bucket: steady requests/second. Default 100. Per-credential limits live in the Lambda. */
  readonly throttleRateLimit?: number;
  /** Stage-wide token bucket: burst capacity (requests). Default 200. */
  readonly throttleBurstLimit?: number;
  /** Origins browser clients may call from (lib/edge-settings.ts `corsOriginsOf`). Default `['*']`. */
  readonly corsAllowOrigins?: readonly string[];
  /**
   * A custom domain for the API (context `apiDomainName` + `apiCertificateArn`): a regional API Gateway domain
   * name mapped to the `$default` stage. Point a CNAME/alias at the `ApiDomainTarget` output. Default none.
   */
  readonly customDomain?: { readonly domainName: string; readonly certificateArn: string };
  /** Access log retention. Default one month. */
  readonly accessLogRetention?: logs.RetentionDays;
}

/** Fields of one access log line (JSON), from HTTP API `$context` variables. Latencies are ms. */
const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  routeKey: '$context.routeKey',
  path: '$context.path',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  // The Lambda request id: the "Reference" a 500's message quotes, so a customer's report finds its line.
  integrationRequestId: '$context.integration.requestId',
  error: '$context.error.message',
};

/**
 * HTTP API with a `$default` stage (auto-deploy, throttled stage-wide and per costly route, JSON access logs),
 * CORS for browser clients, an optional custom domain, and routes derived from the registry. Authentication is
 * not an API Gateway authorizer: the Lambdas verify `mcp_at_` keys and OAuth access tokens themselves
 * (shared/http/middleware/authenticate.ts), because the rate limit and the credential lookup are one DynamoDB
 * call. Partner keys use their own REST stage (lib/partner-api.ts).
 */
export class ServiceHttpApi extends Construct {
  readonly api: apigwv2.HttpApi;
  /** The `$default` stage (no stage segment in URLs). */
  readonly stage: apigwv2.HttpStage;
  /** JSON access log lines, one per request (fields: `ACCESS_LOG_FIELDS`). */
  readonly accessLogs: logs.LogGroup;
  /** Invoke URL, ending in `/`: the custom domain's when there is one, else the stage's. */
  readonly url: string;
  /** The custom domain (props `customDomain`), or undefined. */
  readonly customDomain?: apigwv2.DomainName;
  /**
   * The nested stack holding the routes, their integrations and the integrations' Lambda permissions (about 180
   * resources), so the main stack stays under CloudFormation's 500 with a version, alias and deployment group per
   * function (lib/safe-deployments.ts). The API, its stage and access logs stay in the main stack.
   */
  readonly routesStack: NestedStack;

  constructor(scope: Construct, id: string, props: ServiceHttpApiProps) {
    super(scope, id);
    const ops = props.operations;

    this.api = new apigwv2.HttpApi(this, 'Api', {
      description: 'Transaction-coordination API (/api/v1)',
      createDefaultStage: false,
      // API Gateway answers preflights itself and adds the headers to every response (lib/edge-settings.ts).
      corsPreflight: {
        allowOrigins: [...(props.corsAllowOrigins ?? ['*'])],
        allowHeaders: [...CORS_POLICY.allowHeaders],
        allowMethods: CORS_POLICY.allowMethods.map((m) => apigwv2.CorsHttpMethod[m]),
        exposeHeaders: [...CORS_POLICY.exposeHeaders],
        maxAge: Duration.seconds(CORS_POLICY.maxAgeSeconds),
      },
    });

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? logs.RetentionDays.ONE_MONTH,
      // The request trail outlives a stack delete (it still expires after `retention`).
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.throttleRateLimit ?? STAGE_THROTTLE.rateLimit, burstLimit: props.throttleBurstLimit ?? STAGE_THROTTLE.burstLimit },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    this.url = this.stage.url;
    this.routesStack = new NestedStack(this, 'Routes', { description: 'HTTP API routes, their Lambda integrations and permissions (lib/http-api.ts)' });
    // Operation routes and `$default` (public routes have their own scope and acknowledgments below).
    const operationRoutes = new Construct(this.routesStack, 'Operations');

    // One integration per group, shared by its routes. `scopePermissionToRoute: false` gives each function one
    // Lambda permission for this API (`<apiId>/*/*/*`) instead of one per route (~116 fewer resources).
    const integrations = new Map<LambdaGroup, HttpLambdaIntegration>();
    const integrationOf = (group: LambdaGroup) => {
      let integration = integrations.get(group);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${pascal(group)}Integration`, props.functionOf(group), {
          scopePermissionToRoute: false,
        });
        integrations.set(group, integration);
      }
      return integration;
    };

    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const op of ops) {
      const route = new apigwv2.HttpRoute(operationRoutes, `Route${op.operationId[0].toUpperCase()}${op.operationId.slice(1)}`, {
        httpApi: this.api,
        routeKey: apigwv2.HttpRouteKey.with(op.path, apigwv2.HttpMethod[op.method]),
        integration: integrationOf(op.group),
      });
      const throttle = routeThrottleOf(op);
      if (throttle) {
        routeSettings[`${op.method} ${op.path}`] = { ThrottlingRateLimit: throttle.rateLimit, ThrottlingBurstLimit: throttle.burstLimit };
        // A stage's RouteSettings may name only routes that exist: deploy them first.
        this.stage.node.addDependency(route);
      }
    }
    // The L2 stage sets only stage-wide throttling; per-route buckets are the CloudFormation property.
    (this.stage.node.defaultChild as apigwv2.CfnStage).addPropertyOverride('RouteSettings', routeSettings);

    if (props.customDomain) {
      const domain = new apigwv2.DomainName(this, 'CustomDomain', {
        domainName: props.customDomain.domainName,
        certificate: acm.Certificate.fromCertificateArn(this, 'CustomDomainCertificate', props.customDomain.certificateArn),
      });
      new apigwv2.ApiMapping(this, 'CustomDomainMapping', { api: this.api, domainName: domain, stage: this.stage });
      this.url = `https://${props.customDomain.domainName}/`;
      this.customDomain = domain;
    }

    // `$default` has its own integration with a route-scoped permission: its source ARN
    // (`<apiId>/$default/$default`) has no method/path part, so `<apiId>/*/*/*` would not match it.
    new apigwv2.HttpRoute(operationRoutes, 'DefaultRoute', {
      httpApi: this.api,
      routeKey: apigwv2.HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('DefaultRouteIntegration', props.functionOf(DEFAULT_ROUTE_GROUP)),
    });

    Validations.of(operationRoutes).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Every route authenticates inside its Lambda (mcp_at_/rsk_ API keys hashed and looked up) in the same ' +
        'DynamoDB call that enforces the rate limit; an API Gateway ' +
        'authorizer would add a second lookup. Unauthenticated calls get 401 in the error envelope.',
    });

    // Public routes live outside the API's construct subtree, so the acknowledgment above does not cover them and
    // each carries its own reason.
    const seen = new Map<string, number>();
    // One integration (and one Lambda permission) per worker, shared by its routes.
    const workerIntegrations = new Map<string, HttpLambdaIntegration>();
    const integrationOfWorker = (worker: PublicRoute['worker']) => {
      let integration = workerIntegrations.get(worker);
      if (!integration) {
        integration = new HttpLambdaIntegration(`Public${pascal(worker)}Integration`, props.publicFunctionOf!(worker), { scopePermissionToRoute: false });
        workerIntegrations.set(worker, integration);
      }
      return integration;
    };
    for (const pub of props.publicRoutes ?? []) {
      if (!props.publicFunctionOf) throw new Error('publicRoutes needs publicFunctionOf');
      // The first route of a worker and method keeps its original ids; further ones add their path.
      const suffix = (seen.get(`${pub.worker} ${pub.method}`) ?? 0) === 0 ? '' : pathId(pub.path);
      seen.set(`${pub.worker} ${pub.method}`, (seen.get(`${pub.worker} ${pub.method}`) ?? 0) + 1);
      const route = new apigwv2.HttpRoute(this.routesStack, `PublicRoute${pascal(pub.worker)}${pub.method}${suffix}`, {
        httpApi: this.api,
        routeKey: apigwv2.HttpRouteKey.with(pub.path, apigwv2.HttpMethod[pub.method]),
        integration: integrationOfWorker(pub.worker),
      });
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason: `${pub.method} ${pub.path} takes no credentials by design. ${pub.unauthenticatedBecause}`,
      });
    }
  }
}

/** `/.well-known/oauth-protected-resource/mcp` → `WellKnownOauthProtectedResourceMcp` (construct ids). */
const pathId = (p: string): string => pascal(p.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase());

/** `key-dates` → `KeyDates` (construct ids). */
export const pascal = (s: string): string =>
  s.replace(/(^|-)([a-z])/g, (_m, _dash: string, c: string) => c.toUpperCase());
