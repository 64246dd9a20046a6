/**
 * Counts the DynamoDB requests made through the shared document client by kind: the command and the kinds of item
 * it touches (the sort key's first segment: `DLV` a webhook delivery, `ATT` an attempt, `WEBHOOK` a subscription,
 * `EVENT` an outbox event...), with the items each kind wrote or read. A middleware on the client's stack (the
 * document client shares the base client's, so every command of the process passes it once); the service never
 * installs it. Unlike a rate, these counts do not depend on the machine's load.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** Requests and the items they named, by kind (`UpdateItem DLV`, `BatchWriteItem ATT`...). */
export type RequestKinds = Map<string, { requests: number; items: number }>;

export interface RequestKindCounter {
  /** The counts since the last `reset()` (or the install). */
  readonly kinds: RequestKinds;
  /** Starts counting afresh. */
  reset(): void;
}

/** `SK`'s first segment of a key or item, marshalled (`{S: 'x'}`) or not; `-` when it has none. */
function skKind(item: Record<string, unknown> | undefined): string {
  const sk = item?.SK;
  const s = typeof sk === 'string' ? sk : typeof sk === 'object' && sk !== null && typeof (sk as { S?: unknown }).S === 'string' ? (sk as { S: string }).S : undefined;
  return s === undefined ? '-' : s.split('#')[0];
}

/** The item kinds a command names (one entry per item; `Query`/`Scan` name none: counted as `-`). */
function kindsOf(input: Record<string, any>): string[] {
  if (input.Item || input.Key) return [skKind(input.Item ?? input.Key)];
  if (input.TransactItems)
    return (input.TransactItems as Record<string, any>[]).map((t) => skKind(t.Put?.Item ?? t.Update?.Key ?? t.Delete?.Key ?? t.ConditionCheck?.Key ?? t.Get?.Key));
  if (input.RequestItems)
    return Object.values(input.RequestItems as Record<string, any>).flatMap((r) =>
      Array.isArray(r) ? r.map((w: Record<string, any>) => skKind(w.PutRequest?.Item ?? w.DeleteRequest?.Key)) : (r.Keys as Record<string, unknown>[]).map(skKind),
    );
  return ['-'];
}

/** Installs the counting middleware (step `initialize`) on `doc` and returns its counter. */
export function installRequestKindCounter(doc: DynamoDBDocumentClient): RequestKindCounter {
  let kinds: RequestKinds = new Map();
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName ?? 'unknown').replace(/Command$/, '');
      const items = kindsOf(args.input as Record<string, any>);
      const key = `${command} ${[...new Set(items)].sort().join('+')}`;
      const k = kinds.get(key) ?? { requests: 0, items: 0 };
      kinds.set(key, { requests: k.requests + 1, items: k.items + items.length });
      return next(args);
    },
    { step: 'initialize', name: 'benchRequestKindCounter', override: true },
  );
  return {
    get kinds() {
      return kinds;
    },
    reset: () => void (kinds = new Map()),
  };
}
