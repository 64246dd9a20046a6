/**
 * Setup file of the `runtime` project, whose files share one module graph per worker (`isolate: false`, see
 * vitest.config.ts): each file must start as if in a fresh process. vitest runs it before each file; after the file it
 * restores `process.env` as it was before the file (tests point TABLE_NAME, endpoints and modes at their own servers), puts the request clock back
 * on the wall clock, and drops every port's cached client and the verifier's key cache, so the next file's first
 * call builds them from its own environment instead of reaching a server the last file closed.
 */
import { afterAll, vi } from 'vitest';
import { setClock } from '#ports/clock';
import { resetDbClient } from '#db/client';
import { resetBlobStore } from '#ports/blob-store';
import { resetSqsClient } from '#ports/sqs';
import { resetScheduler } from '#ports/scheduler';
import { resetTokenSigner } from '#ports/token-signer';
import { resetPlainMailer } from '#ports/plain-mailer';
import { resetMailer } from '#ports/mail/transport';
import { resetSmsSender } from '#ports/sms/transport';
import { resetPushSender } from '#ports/push';
import { resetTextractClient } from '#ports/ocr-textract';
import { resetSigningKeyCache } from '#use-cases/signing-key-cache';
import { moveOffWornEngine } from './dynamo-endpoint.ts';

// Taken when this setup file runs, before the test file is imported: a file that sets a variable at its top level
// (e.g. WEBHOOK_RETRY_SCHEDULE) must not pass it on.
const saved: Record<string, string | undefined> = { ...process.env };

// Before the file makes anything: its tables go to a fresh engine once this worker's current one is worn
// (global-setup.ts).
await moveOffWornEngine();

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  for (const [key, value] of Object.entries(saved)) if (process.env[key] !== value) process.env[key] = value;
  setClock();
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  for (const reset of [resetDbClient, resetBlobStore, resetSqsClient, resetScheduler, resetTokenSigner, resetPlainMailer, resetMailer, resetSmsSender, resetPushSender, resetTextractClient, resetSigningKeyCache]) reset();
});
