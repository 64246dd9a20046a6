/**
 * CDK app entry (`cdk synth` / `cdk deploy`, via cdk.json `npx tsx bin/app.ts`): the
 * `TransactionCoordinationStack` (stack name from context `stackName`, default `tcs-dev`) checked by
 * cdk-nag's AWS Solutions pack. Justified findings are acknowledged next to their cause, each with a reason:
 * lib/service-function.ts (IAM4, IAM5, L1), lib/http-api.ts (APIG4) and lib/webhook-pipeline.ts (SQS3 on the two
 * dead-letter queues; IAM5 `Resource::*` restated for the fan-out's `dynamodb:ListStreams`).
 */
import { App } from 'aws-cdk-lib';
import { configureApp } from '../lib/app.ts';
import { loadOperations } from '../lib/registry.ts';

const app = new App();
configureApp(app, await loadOperations());
app.synth();
