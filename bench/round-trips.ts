/**
 * Counts DynamoDB round trips made through the shared document client, with a middleware on its stack
 * (the document client shares the base client's stack, so every command of the process passes it once).
 * Counts are meaningful per request only while requests run one at a time.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface RoundTripCounter {
  /** Calls seen so far. */
  readonly count: number;
  /** Command names in call order (e.g. `UpdateCommand`), for the calls made since `mark()`. */
  since(mark: number): string[];
  /** Position to pass to `since`. */
  mark(): number;
}

/** Installs the counting middleware (step `initialize`) on `doc` and returns its counter. */
export function installRoundTripCounter(doc: DynamoDBDocumentClient): RoundTripCounter {
  const names: string[] = [];
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      names.push(String((context as { commandName?: string }).commandName ?? 'unknown'));
      return next(args);
    },
    { step: 'initialize', name: 'benchRoundTripCounter', override: true },
  );
  return {
    get count() {
      return names.length;
    },
    mark: () => names.length,
    since: (mark) => names.slice(mark),
  };
}
