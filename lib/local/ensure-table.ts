/** Creates the single table on DynamoDB Local from the same definition CDK deploys, if it is missing. */
import { CreateTableCommand, DescribeTableCommand, UpdateTableCommand, DynamoDBClient, ResourceNotFoundException, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE_KEYS } from '#db/table-definition';

/** @returns true when the table was created now, false when it existed */
export async function ensureTable(endpoint: string, tableName: string): Promise<boolean> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    const table = await client.send(new DescribeTableCommand({ TableName: tableName }));
    await addMissingIndexes(client, tableName, new Set((table.Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName)));
    return false;
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttlAttribute, Enabled: true } }));
  client.destroy();
  return true;
}

/** A table kept under `.data/` from before an index was added gets it now (DynamoDB Local backfills it). */
async function addMissingIndexes(client: DynamoDBClient, tableName: string, present: Set<string | undefined>): Promise<void> {
  const input = createTableInput(tableName);
  for (const index of input.GlobalSecondaryIndexes.filter((i) => !present.has(i.IndexName))) {
    const attrs = new Set<string>(index.KeySchema.map((k) => k.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: input.AttributeDefinitions.filter((a) => attrs.has(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
  }
}
