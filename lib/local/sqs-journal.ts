/**
 * A send journal for the local delivery queue. Real SQS is durable; local-aws-sqs keeps messages in memory, so
 * the local runtime appends each message body sent to the queue to a file under its data directory and, on the
 * next start, sends again those whose delivery is still pending (lib/local/pending-deliveries.ts). This is the
 * local runtime's own bookkeeping: the deployed path writes nothing for it.
 *
 * Format: one JSON line per send, `{"body": "<MessageBody>"}`.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The part of a local-aws-sqs queue object the journal wraps (its private engine API). */
export interface JournaledQueue {
  newRecord: (record: { MessageBody?: string } & Record<string, unknown>, delay?: number) => unknown;
}

/** Appends every message the queue creates (sends, batch sends) to `file`. */
export function journalSends(queue: JournaledQueue, file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const newRecord = queue.newRecord;
  queue.newRecord = (record, delay) => {
    if (typeof record.MessageBody === 'string') appendFileSync(file, JSON.stringify({ body: record.MessageBody }) + '\n');
    return newRecord(record, delay);
  };
}

/** The message bodies in `file`, oldest first (a torn last line, from a crash mid-write, is skipped). */
export function readJournal(file: string): string[] {
  if (!existsSync(file)) return [];
  const bodies: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      const entry = JSON.parse(line) as { body?: unknown };
      if (typeof entry.body === 'string') bodies.push(entry.body);
    } catch {
      // Only the last line can be torn; the rest were written whole.
    }
  }
  return bodies;
}

/** Empties the journal (before the still-pending messages are sent again, which journals them anew). */
export function clearJournal(file: string): void {
  writeFileSync(file, '');
}
