/**
 * Upload trigger (documents bucket `s3:ObjectCreated:*` → the upload checked and recorded): each record goes to
 * shared/use-cases/upload-notification.ts, which holds the rules and the metrics. The same handler runs in AWS
 * (S3 → Lambda) and locally (s3rver's event, lib/local/s3-local.ts).
 */
import type { S3Event } from 'aws-lambda';
import { recordUploadNotification, type UploadOutcome } from '#use-cases/upload-notification';
import { observedHandler } from '#observability/powertools';

/**
 * Lambda handler. Records are processed in order; an unexpected error (logged and counted by the use case) is
 * rethrown after the others ran, so Lambda's asynchronous retry covers it (repeats change nothing).
 */
export const handler = observedHandler(async (event: S3Event): Promise<{ results: UploadOutcome[] }> => {
  const results: UploadOutcome[] = [];
  let failure: unknown;
  for (const record of event.Records ?? []) {
    try {
      results.push(await recordUploadNotification(record));
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure) throw failure;
  return { results };
});
