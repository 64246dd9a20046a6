/**
 * The single table's key schema, shared by the CDK stack (`lib/`) and the local runtime, so both create
 * exactly the same table. Attribute names are generic (`PK`/`SK`, `GSI1PK`/`GSI1SK`, ...): entities give
 * them meaning (see docs/data-model.md).
 */
export const TABLE_KEYS = {
  partitionKey: 'PK',
  sortKey: 'SK',
  ttlAttribute: 'ttl',
  indexes: [
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK', projection: 'ALL' },
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK', projection: 'ALL' },
    /**
     * Every item of one organization, by the `orgId` attribute organization-owned items carry (ARCHITECTURE
     * "Items carry orgId"), keys only: the workspace purge and export enumerate a tenant with `Query` here,
     * never a `Scan` of other tenants. Sort key `PK` (the item's own partition key). A tenant's writes are capped
     * by its keys' rate limits (60 writes/min/key), far below a GSI partition's 1,000 writes/s.
     */
    { indexName: 'GSI3', partitionKey: 'orgId', sortKey: 'PK', projection: 'KEYS_ONLY' },
    /**
     * Keys only, for items updated on the request path: API keys and OAuth grants (their rate-limit counters
     * change on every request). An update that touches no projected attribute writes nothing to a GSI, so
     * authenticating costs one write unit; in GSI1 (projection ALL) it cost two. Readers fetch the few items
     * found with `BatchGetItem`.
     */
    { indexName: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK', projection: 'KEYS_ONLY' },
  ],
} as const;

export type IndexName = (typeof TABLE_KEYS.indexes)[number]['indexName'];

/**
 * A `CreateTable` input for DynamoDB Local (on-demand, all string keys, each index's projection, streams with
 * new and old images, as deployed).
 */
export function createTableInput(tableName: string) {
  const attrs = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
  TABLE_KEYS.indexes.forEach((i) => (attrs.add(i.partitionKey), attrs.add(i.sortKey)));
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...attrs].map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: TABLE_KEYS.indexes.map((i) => ({
      IndexName: i.indexName,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: i.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: i.projection },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' as const },
  };
}
