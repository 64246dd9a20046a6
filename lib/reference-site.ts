/**
 * Ships the self-description with the deploy: `GET /docs` (the reference page), `GET /docs/redoc.standalone.js`
 * (Redoc's standalone bundle, vendored from npm) and `GET /openapi.json` (the document generated from the
 * registry) as routes of the service's HTTP API, served by one small function whose code package holds the
 * three files (staged at synth time). The document's server is `/`: it describes the API it is served from.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RegisteredOperation } from '#api/operation';
import { buildOpenApi } from '#lib/openapi/document';
import { referencePage, rendererPath, RENDERER_FILE } from '#lib/openapi/reference-page';
import { landingDocument, LANDING_PATHS } from '#lib/openapi/landing';

export interface ReferenceSiteProps {
  httpApi: apigwv2.HttpApi;
  operations: readonly RegisteredOperation[];
}

/** The routes the construct adds (all GET): the reference, its renderer, the document, and the landing (lib/openapi/landing.ts). */
export const REFERENCE_ROUTES = ['/docs', `/docs/${RENDERER_FILE}`, '/openapi.json', ...LANDING_PATHS] as const;

/** The function's handler: the three files, read once, by route. */
const HANDLER = `import { readFileSync } from 'node:fs';
const files = {
  'GET /docs': ['reference.html', 'text/html; charset=utf-8'],
  'GET /docs/${RENDERER_FILE}': ['${RENDERER_FILE}', 'text/javascript; charset=utf-8'],
  'GET /openapi.json': ['openapi.json', 'application/json'],
  'GET /': ['landing.json', 'application/json'],
  'GET /api/v1': ['landing.json', 'application/json'],
};
const cache = new Map();
export const handler = async (event) => {
  const file = files[event.routeKey];
  if (!file) return { statusCode: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 'not_found', message: 'Not found.' } }) };
  if (!cache.has(file[0])) cache.set(file[0], readFileSync(new URL(file[0], import.meta.url), 'utf8'));
  return { statusCode: 200, headers: { 'content-type': file[1], 'cache-control': 'public, max-age=300' }, body: cache.get(file[0]) };
};
`;

/** Stages the function's code: handler, reference page, document and renderer. @returns the directory */
function stage(operations: readonly RegisteredOperation[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tcs-reference-'));
  const doc = buildOpenApi(operations, '/');
  writeFileSync(path.join(dir, 'index.mjs'), HANDLER);
  writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
  writeFileSync(path.join(dir, 'landing.json'), JSON.stringify(landingDocument({ mcp: false })));
  writeFileSync(path.join(dir, 'reference.html'), referencePage({ specUrl: '/openapi.json', rendererUrl: `/docs/${RENDERER_FILE}`, title: doc.info.title }));
  copyFileSync(rendererPath(), path.join(dir, RENDERER_FILE));
  return dir;
}

export class ReferenceSite extends Construct {
  readonly fn: lambda.Function;

  constructor(scope: Construct, id: string, props: ReferenceSiteProps) {
    super(scope, id);
    const logGroup = new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    this.fn = new lambda.Function(this, 'Fn', {
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      handler: 'index.handler',
      code: lambda.Code.fromAsset(stage(props.operations)),
      memorySize: 256,
      timeout: Duration.seconds(5),
      logGroup,
      description: 'API reference page and OpenAPI document',
    });
    const integration = new HttpLambdaIntegration('Integration', this.fn);
    for (const routePath of REFERENCE_ROUTES) {
      props.httpApi.addRoutes({ path: routePath, methods: [apigwv2.HttpMethod.GET], integration });
    }
    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'AWSLambdaBasicExecutionRole only allows writing CloudWatch Logs; the function reads nothing else.',
      },
      {
        id: 'AwsSolutions-L1',
        reason: 'Node.js 22 is pinned deliberately, like every function of the service (lib/service-function.ts).',
      },
    );
    Validations.of(props.httpApi).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'The reference page and the OpenAPI document are public by design (they hold no data); every other route authenticates in its Lambda.',
    });
  }
}
