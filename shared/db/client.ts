/**
 * The DynamoDB document client, created once per process (module scope, reused across invocations).
 * Captured by the Tracer when tracing is on. Configuration comes from the environment: `TABLE_NAME`; `DYNAMODB_ENDPOINT` only for DynamoDB Local.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { traced } from '#observability/powertools';

let doc: DynamoDBDocumentClient | undefined;

/** The shared document client (lazy, so tests and the local runtime can set the environment first). */
export function db(): DynamoDBDocumentClient {
  if (!doc) {
    const endpoint = process.env.DYNAMODB_ENDPOINT;
    const base = traced(new DynamoDBClient(
      endpoint
        ? {
            endpoint,
            region: process.env.AWS_REGION ?? 'local',
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

/** The table name; throws when `TABLE_NAME` is unset (a deployment error, never a client one). */
export function tableName(): string {
  const name = process.env.TABLE_NAME;
  if (!name) throw new Error('TABLE_NAME is not set');
  return name;
}

/** Drops the cached client (tests that switch endpoints). */
export function resetDbClient(): void {
  doc = undefined;
}
