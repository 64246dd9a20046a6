/**
 * `ServiceFunction`: the one way this service defines a Lambda. It fixes runtime (Node.js 22, arm64),
 * bundling (esbuild, ESM, minified, source maps, AWS SDK v3 bundled; declared lazy modules as chunks beside the
 * bundle), log retention, tracing and the Powertools settings (service name per function; logs and EMF metrics on
 * stdout, into the function's log group), and
 * grants table access only through `bindTable` (least privilege, no `dynamodb:*`). With safe deployments on (the
 * default, lib/safe-deployments.ts) it publishes each deployment as a version behind the alias `live`, which
 * CodeDeploy shifts gradually; `live` is what every invoker names.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as codedeploy from 'aws-cdk-lib/aws-codedeploy';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import type { TableAccess } from './table-access.ts';
import { KMS_READ_ACTIONS, KMS_WRITE_ACTIONS } from './data-key.ts';
import { responseSchemaAliases } from './bundling/no-response-schemas.ts';
import { lazyChunkHooks, lazyChunks } from './bundling/lazy-modules.ts';
import { LIVE_ALIAS, SAFE_DEPLOYMENT_STYLES, SafeDeployments, safeDeploymentsEnabled, type SafeDeploymentStyle } from './safe-deployments.ts';

/** Lets an ESM bundle load CommonJS dependencies that call `require` (the AWS SDK's transitive deps do). */
const REQUIRE_SHIM = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** See lib/bundling/lambda-credentials.ts. */
export const LAMBDA_CREDENTIALS_SHIM = fileURLToPath(new URL('./bundling/lambda-credentials.ts', import.meta.url));

/** See lib/bundling/no-xray.ts. */
export const NO_XRAY_SHIM = fileURLToPath(new URL('./bundling/no-xray.ts', import.meta.url));

/** See lib/bundling/no-local-adapters.ts. */
export const NO_LOCAL_ADAPTERS_SHIM = fileURLToPath(new URL('./bundling/no-local-adapters.ts', import.meta.url));

/** See lib/bundling/lru-cache.ts. */
export const LRU_CACHE_SHIM = fileURLToPath(new URL('./bundling/lru-cache.ts', import.meta.url));

/** See lib/bundling/pako-node-zlib.ts, lib/bundling/standard-fonts-helvetica.ts and lib/bundling/no-png-codec.ts (pdf-lib's dependencies). */
export const PDF_LIB_SHIMS = {
  pako: fileURLToPath(new URL('./bundling/pako-node-zlib.ts', import.meta.url)),
  '@pdf-lib/standard-fonts': fileURLToPath(new URL('./bundling/standard-fonts-helvetica.ts', import.meta.url)),
  '@pdf-lib/upng': fileURLToPath(new URL('./bundling/no-png-codec.ts', import.meta.url)),
} as const;

/** The esbuild aliases a function is bundled with (bench/bundles.ts builds with the same). */
export function bundlingAliases(xraySdk: boolean): Record<string, string> {
  return {
    '@aws-sdk/credential-provider-node': LAMBDA_CREDENTIALS_SHIM,
    'mnemonist/lru-cache': LRU_CACHE_SHIM,
    '#ports/mail/local': NO_LOCAL_ADAPTERS_SHIM,
    '#ports/sms/local': NO_LOCAL_ADAPTERS_SHIM,
    '#ports/scheduler/local': NO_LOCAL_ADAPTERS_SHIM,
    '#ports/push/local': NO_LOCAL_ADAPTERS_SHIM,
    '#ports/token-signer/local': NO_LOCAL_ADAPTERS_SHIM,
    ...PDF_LIB_SHIMS,
    ...responseSchemaAliases(),
    ...(!xraySdk && { '#observability/xray': NO_XRAY_SHIM }),
  };
}

/**
 * Whether an API group bundles the X-Ray SDK (the Powertools Tracer's AWS SDK subsegments): no. Measured (README,
 * "Benchmark"; `npm run bench:bundles`): the X-Ray SDK with cls-hooked and semver is ~115 KB of every group's bundle
 * and most of its init above the DynamoDB baseline, for subsegments of the two or three DynamoDB calls a request
 * makes. API groups keep Lambda's active tracing (the invocation segment, under API Gateway's trace) and their
 * Powertools logs and metrics. Workers choose per function (`xraySdk`); those holding the S3 client or another heavy
 * library leave it out too.
 */
export const bundlesXraySdk = (): boolean => false;

/** Inputs of `ServiceFunction`; everything but `entry` and `serviceName` has an opinionated default. */
export interface ServiceFunctionProps {
  /** Absolute path of the handler module (TypeScript); it must export `handler`. */
  readonly entry: string;
  /**
   * Powertools service name (`POWERTOOLS_SERVICE_NAME`): the `service` key of every log line and the `service`
   * dimension of every metric, e.g. `api-documents`, `webhook-delivery`, `extraction-start-ocr`.
   */
  readonly serviceName: string;
  /**
   * Bundle the X-Ray SDK, so the Powertools Tracer records a subsegment per AWS SDK call. Default true. False
   * (functions holding the S3 client: `bundlesXraySdk`) aliases it out of the bundle and sets
   * `POWERTOOLS_TRACE_ENABLED=false`; Lambda's active tracing still records the invocation.
   */
  readonly xraySdk?: boolean;
  /** Human description shown in the console (e.g. `API group tasks`). */
  readonly description?: string;
  /**
   * Maximum run time. Default 29 s: API Gateway's HTTP API integration limit, so a function never outlives
   * the request it answers.
   */
  readonly timeout?: Duration;
  /** Memory in MB (CPU scales with it). Default 512. */
  readonly memorySize?: number;
  /** Extra environment variables (merged over `NODE_OPTIONS`; `TABLE_NAME` is set by `bindTable`). */
  readonly environment?: Record<string, string>;
  /** How long CloudWatch keeps the function's logs. Default one month. */
  readonly logRetention?: logs.RetentionDays;
  /** Log group removal. Default DESTROY (logs are operational, not records). */
  readonly logRemovalPolicy?: RemovalPolicy;
  /**
   * Concurrent executions reserved for (and capping) this function. Default none: the function shares the
   * account's unreserved pool. Reserving takes the amount out of that pool.
   */
  readonly reservedConcurrentExecutions?: number;
  /**
   * How CodeDeploy shifts traffic to a new version (lib/safe-deployments.ts): `api` (canary 10 % for 5 minutes) for
   * functions answering HTTP requests, `worker` (linear 10 % a minute) for asynchronous ones. Default `worker`.
   */
  readonly deployment?: SafeDeploymentStyle;
  /**
   * Modules the code loads with `import()` on some requests only, by their package.json `imports` specifier (e.g.
   * `#domain/html-to-text`): shipped as chunks beside the bundle, `lazy/<name>.mjs`, and loaded on first use
   * (lib/bundling/lazy-modules.ts). Default none: every `import()` is bundled in.
   */
  readonly lazyModules?: readonly string[];
}

/** Options of `ServiceFunction.bindTable`. */
export interface BindTableOptions {
  /**
   * Also grant the actions on the table's indexes (`<tableArn>/index/*`). Default true (API groups `Query`
   * GSI1/GSI2); false for a function that only touches base-table keys.
   */
  readonly indexes?: boolean;
}

/**
 * A bundled Node.js 22 arm64 Lambda with its own log group (retention set) and X-Ray active tracing.
 * The function name is generated by CloudFormation (never hard-coded, so stacks can coexist).
 */
export class ServiceFunction extends Construct {
  /** The underlying function (for integrations, metrics). */
  readonly fn: nodejs.NodejsFunction;
  /** The function's log group; its retention is `logRetention`. */
  readonly logGroup: logs.LogGroup;
  /**
   * What invokers name: the alias `live` with safe deployments on, else the function itself ($LATEST). Integrations,
   * event-source mappings, notifications, subscriptions, state-machine tasks, schedule targets and their permissions
   * use this; metrics use `fn` (all versions).
   */
  readonly live: lambda.IFunction;
  /** The alias `live` (safe deployments on), else undefined. */
  readonly alias?: lambda.Alias;
  /** Shifts `alias` to each new version and rolls back on its alarms (`addRollbackAlarm`); undefined when off. */
  readonly deploymentGroup?: codedeploy.LambdaDeploymentGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.DESTROY,
    });

    const aliases = bundlingAliases(props.xraySdk ?? true);
    const chunks = lazyChunks(props.lazyModules ?? []);
    this.fn = new nodejs.NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(29),
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      tracing: lambda.Tracing.ACTIVE,
      logGroup: this.logGroup,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        ...(props.xraySdk === false && { POWERTOOLS_TRACE_ENABLED: 'false' }),
        ...props.environment,
      },
      bundling: {
        minify: true,
        sourceMap: true,
        // Stack traces map to file:line without shipping the sources.
        sourcesContent: false,
        target: 'node22',
        format: nodejs.OutputFormat.ESM,
        banner: REQUIRE_SHIM,
        mainFields: ['module', 'main'],
        // Bundle the AWS SDK v3 too: a pinned, tree-shaken client instead of the runtime's copy. Only lazy modules
        // stay out, each built into its own chunk after the main bundle.
        externalModules: chunks.map((c) => c.specifier),
        ...(chunks.length > 0 && { commandHooks: lazyChunkHooks(chunks, { target: 'node22', banner: REQUIRE_SHIM, mainFields: ['module', 'main'], alias: aliases }) }),
        forceDockerBundling: false,
        // Lambda's credentials arrive in environment variables: skip the SDK's ~100 KB default chain; a Map-based
        // LRU for the DynamoDB endpoint cache; and the X-Ray SDK out where `xraySdk` is false.
        esbuildArgs: Object.fromEntries(Object.entries(aliases).map(([from, to]) => [`--alias:${from}`, to])),
      },
    });

    if (safeDeploymentsEnabled(this)) {
      // The version is retained (CDK's default): a rollback shifts the alias back to it.
      this.alias = new lambda.Alias(this, 'Live', { aliasName: LIVE_ALIAS, version: this.fn.currentVersion });
      const shared = SafeDeployments.of(this);
      this.deploymentGroup = new codedeploy.LambdaDeploymentGroup(this, 'Deployment', {
        application: shared.application,
        role: shared.role,
        alias: this.alias,
        deploymentConfig: SAFE_DEPLOYMENT_STYLES[props.deployment ?? 'worker'],
      });
      this.live = this.alias;
      // An SNS subscription to `live` (lib/messaging/mail-sending.ts, sms.ts) is created under the alias.
      Validations.of(this.alias).acknowledge({
        id: 'CloudFormation-Validate::W3694',
        reason: 'SNS accepts a qualified Lambda ARN (an alias) as a lambda endpoint and invokes that alias; the template check only knows AWS::Lambda::Function.',
      });
    } else {
      this.live = this.fn;
    }

    // Justified cdk-nag findings owned by this construct (see bin/app.ts for the pack).
    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          'AWSLambdaBasicExecutionRole only allows writing CloudWatch Logs (CreateLogGroup/Stream, PutLogEvents); ' +
          'the function logs to its own retention-managed log group.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'X-Ray active tracing: xray:PutTraceSegments/PutTelemetryRecords support no resource-level permissions, ' +
          'so AWS requires Resource "*".',
      },
      {
        id: 'AwsSolutions-L1',
        reason:
          'Node.js 22 is pinned deliberately: an LTS runtime supported by Lambda, matching the esbuild target ' +
          '(node22) the bundles are built and tested for; moving to a newer runtime is a tested change, not a default.',
      },
    );
  }

  /**
   * Makes CodeDeploy roll a deployment of this function back when any of `alarms` goes to ALARM while traffic shifts
   * (at most 10 per deployment group). Does nothing with safe deployments off.
   */
  addRollbackAlarm(...alarms: cloudwatch.IAlarm[]): void {
    for (const alarm of alarms) this.deploymentGroup?.addAlarm(alarm);
  }

  /**
   * Grants exactly `access` on `table` and, unless `indexes: false`, its indexes (`<tableArn>/index/*`, needed
   * for `Query` on the GSIs) as one explicit statement, and sets `TABLE_NAME`. No `dynamodb:*`, no `Scan`, no
   * stream or admin actions (a stream consumer gets those from its event source).
   * @param access DynamoDB actions, e.g. `tableAccessOf('tasks')`
   * @throws Error when `access` is empty
   */
  bindTable(table: dynamodb.ITable, access: TableAccess, options: BindTableOptions = {}): void {
    if (access.length === 0) throw new Error(`${this.node.path}: bindTable needs at least one action`);
    const indexes = options.indexes ?? true;
    this.fn.addEnvironment('TABLE_NAME', table.tableName);
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({
        effect: iam.Effect.ALLOW,
        actions: [...access],
        resources: indexes ? [table.tableArn, `${table.tableArn}/index/*`] : [table.tableArn],
      }),
    );
    if (table.encryptionKey) {
      // Reads decrypt; any write also encrypts (DynamoDB calls KMS with the caller's permissions).
      const writes = access.some((a) => !READ_ONLY_TABLE_ACTIONS.has(a));
      this.fn.addToRolePolicy(new iam.PolicyStatement({ actions: writes ? [...KMS_WRITE_ACTIONS] : [...KMS_READ_ACTIONS], resources: [table.encryptionKey.keyArn] }));
    }
    if (!indexes) return;
    Validations.of(this).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${logicalIdRef(table)}.Arn>/index/*]`,
      reason:
        'Index wildcard covers only this table\'s GSIs (GSI1, GSI2), which the repositories Query; actions are the ' +
        'explicit per-group list from lib/table-access.ts.',
    });
  }
}

/** DynamoDB actions that only read. */
const READ_ONLY_TABLE_ACTIONS: ReadonlySet<string> = new Set(['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:ConditionCheckItem', 'dynamodb:DescribeTable']);

/** cdk-nag names a table ARN token by the table's CloudFormation logical id: `<TableXXXX.Arn>`. */
function logicalIdRef(table: dynamodb.ITable): string {
  const cfn = table.node.defaultChild as dynamodb.CfnTable | undefined;
  if (!cfn) throw new Error('bindTable needs a table defined in this app (not imported)');
  return cfn.stack.getLogicalId(cfn);
}
