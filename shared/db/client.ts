/**
 * The DynamoDB document client, created once per process (module scope, reused across invocations).
 * Captured by the Tracer when tracing is on. Configuration comes from shared/ports/config.ts: `TABLE_NAME`; `DYNAMODB_ENDPOINT` only for DynamoDB Local.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { traced } from '#observability/powertools';
import { config } from '#ports/config';

let doc: DynamoDBDocumentClient | undefined;

/** The shared document client (lazy, so tests and the local runtime can set the environment first). */
export function db(): DynamoDBDocumentClient {
  if (!doc) {
    const endpoint = config.dynamodbEndpoint;
    const base = traced(new DynamoDBClient(
      endpoint
        ? {
            endpoint,
            region: config.awsRegion ?? 'local',
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          }
        : {},
    ));
    doc = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return doc;
}

/** The table name (`TABLE_NAME`). @throws ConfigurationError when unset (a deployment error, never a client one) */
export function tableName(): string {
  return config.tableName;
}

/** Drops the cached client (tests that switch endpoints). */
export function resetDbClient(): void {
  doc = undefined;
}
