/**
 * The SQS client, created once per process (captured by the Tracer when tracing is on). `SQS_ENDPOINT` points it at local-aws-sqs in the local runtime;
 * in AWS it is unset and the SDK's defaults apply.
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { traced } from '#observability/powertools';
import { config } from '#ports/config';

let client: SQSClient | undefined;

export function sqs(): SQSClient {
  if (!client) {
    const endpoint = config.sqsEndpoint;
    client = traced(
      new SQSClient(endpoint ? { endpoint, region: config.awsRegion ?? 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    );
  }
  return client;
}

/** Drops the cached client (tests and the local runtime switching endpoints). */
export function resetSqsClient(): void {
  client = undefined;
}

/** URL of the webhook delivery queue (`WEBHOOK_QUEUE_URL`). @throws ConfigurationError when unset */
export function webhookQueueUrl(): string {
  return config.webhookQueueUrl;
}
