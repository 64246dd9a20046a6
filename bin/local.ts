/**
 * `npm start`: the whole service on this machine, no AWS account. Starts the local runtime
 * (`lib/local/runtime.ts`: DynamoDB Local with data in `.data/dynamodb`, kept across restarts; the table from
 * the CDK definition; local SQS; the outbox stream and delivery pollers; the HTTP API; the SMTP server, SMS sink and
 * scheduler standing in for SES, End User Messaging and EventBridge Scheduler), seeds a demo
 * organization on first start, writes `.data/local-credentials.json`, and serves
 * `http://127.0.0.1:${PORT:-3000}/api/v1/...` through the real Lambda handlers. Ctrl-C stops everything.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { JavaMissingError } from '#lib/local/dynamodb-local';
import { startLocalRuntime } from '#lib/local/runtime';
import { removeRuntimeFile, writeRuntimeFile } from '#lib/local/runtime-file';

const DATA_DIR = path.resolve(process.env.DATA_DIR ?? '.data');
const PORT = Number(process.env.PORT ?? 3000);
const SMTP_PORT = Number(process.env.SMTP_PORT ?? 2525);
const TABLE = process.env.TABLE_NAME ?? 'tcs-local';
// The OAuth signing key outlives a restart, so issued tokens keep working (shared/ports/token-signer/local.ts).
process.env.OAUTH_LOCAL_KEY_FILE ??= path.join(DATA_DIR, 'oauth-signing-key.json');
const CREDENTIALS = path.join(DATA_DIR, 'local-credentials.json');

async function main() {
  const t0 = Date.now();
  mkdirSync(DATA_DIR, { recursive: true });
  let runtime;
  try {
    runtime = await startLocalRuntime({ dataDir: DATA_DIR, tableName: TABLE, port: PORT, smtpPort: SMTP_PORT });
  } catch (err) {
    if (err instanceof JavaMissingError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // Lets `npm run admin`, `npm run sms` and `npm run mail` reach this DynamoDB Local while it runs.
  writeRuntimeFile(DATA_DIR, { endpoint: runtime.dynamoEndpoint, tableName: TABLE, pid: process.pid, baseUrl: runtime.baseUrl, smtpUrl: runtime.messaging.smtp.url });

  let creds = existsSync(CREDENTIALS) ? JSON.parse(readFileSync(CREDENTIALS, 'utf8')) : undefined;
  if (!creds) {
    const { seedDemo } = await import('#lib/local/seed');
    const seeded = await seedDemo();
    creds = { baseUrl: runtime.baseUrl, orgId: seeded.orgId, keys: seeded.keys };
    writeFileSync(CREDENTIALS, JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
    console.log('Seeded the demo organization.');
  } else if (creds.baseUrl !== runtime.baseUrl) {
    creds.baseUrl = runtime.baseUrl;
    writeFileSync(CREDENTIALS, JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
  }
  console.log(`API:          ${runtime.baseUrl}/api/v1  (ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  console.log(`DynamoDB:     ${runtime.dynamoEndpoint} (table ${TABLE}, data in ${path.relative(process.cwd(), DATA_DIR) || '.'}/dynamodb)`);
  console.log(`Webhooks:     outbox stream → ${runtime.sqs.queueUrl} (DLQ ${runtime.sqs.dlqUrl}); ${runtime.requeued} pending deliveries resumed`);
  const rel = (p: string) => path.relative(process.cwd(), p) || '.';
  console.log(`Mail:         ${runtime.messaging.smtp.url} keeps every email in ${rel(runtime.messaging.smtp.directory)} (npm run outbox); mail to a reply+…@reply.tcs.localhost address threads back`);
  console.log(`Texts:        ${rel(runtime.messaging.smsSink)} (npm run sms -- list; npm run sms -- reply --from +15125550143 "text")`);
  console.log(`Credentials:  ${CREDENTIALS}`);
  console.log(`Try:          curl -s -H "Authorization: Bearer $(node -p "require('${CREDENTIALS}').keys.read")" ${runtime.baseUrl}/api/v1/health`);
  console.log('Logs:         below, one JSON line each (Powertools Logger: an access line per request) and EMF metric documents (`_aws`)');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    await runtime.stop();
    removeRuntimeFile(DATA_DIR);
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
