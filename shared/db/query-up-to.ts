/** Paged reads shared by the filtered list operations (deals, contacts, proposals). */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from '#db/client';

/**
 * Reads pages of `input` until `wanted` items (after any FilterExpression) are in hand or the index is exhausted.
 * @returns the raw items, in index order; may hold more than `wanted` (a whole last page)
 */
export async function queryUpTo(input: QueryCommandInput, wanted: number): Promise<Record<string, any>[]> {
  const found: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(new QueryCommand({ ...input, ExclusiveStartKey }));
    found.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && found.length < wanted);
  return found;
}
