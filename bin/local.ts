/**
 * `npm start`: the whole service on this machine, no AWS account. Starts DynamoDB Local (data in
 * `.data/dynamodb`, kept across restarts), creates the table from the CDK definition, seeds a demo
 * organization on first start, writes `.data/local-credentials.json`, and serves
 * `http://127.0.0.1:${PORT:-3000}/api/v1/...` through the real Lambda handlers. Ctrl-C stops everything.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { JavaMissingError, startDynamoDbLocal } from '#lib/local/dynamodb-local';
import { ensureTable } from '#lib/local/ensure-table';
import { startLocalApi } from '#lib/local/http-server';

const DATA_DIR = path.resolve(process.env.DATA_DIR ?? '.data');
const PORT = Number(process.env.PORT ?? 3000);
const TABLE = process.env.TABLE_NAME ?? 'tcs-local';
const CREDENTIALS = path.join(DATA_DIR, 'local-credentials.json');
const RUNTIME = path.join(DATA_DIR, 'local-runtime.json');

async function main() {
  const t0 = Date.now();
  mkdirSync(DATA_DIR, { recursive: true });
  let ddb;
  try {
    ddb = await startDynamoDbLocal({ dataDir: path.join(DATA_DIR, 'dynamodb'), port: Number(process.env.DYNAMODB_PORT ?? 0) || undefined });
  } catch (err) {
    if (err instanceof JavaMissingError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  process.env.TABLE_NAME = TABLE;
  process.env.DYNAMODB_ENDPOINT = ddb.endpoint;
  process.env.LOCAL_MODE = 'true';
  await ensureTable(ddb.endpoint, TABLE);
  const api = await startLocalApi({ port: PORT });
  // Lets `npm run admin` reach this DynamoDB Local while it runs.
  writeFileSync(RUNTIME, JSON.stringify({ endpoint: ddb.endpoint, tableName: TABLE, pid: process.pid, baseUrl: api.baseUrl }) + '\n');

  let creds = existsSync(CREDENTIALS) ? JSON.parse(readFileSync(CREDENTIALS, 'utf8')) : undefined;
  if (!creds) {
    const { seedDemo } = await import('#lib/local/seed');
    const seeded = await seedDemo();
    creds = { baseUrl: api.baseUrl, orgId: seeded.orgId, keys: seeded.keys };
    writeFileSync(CREDENTIALS, JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
    console.log('Seeded the demo organization.');
  } else if (creds.baseUrl !== api.baseUrl) {
    creds.baseUrl = api.baseUrl;
    writeFileSync(CREDENTIALS, JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
  }
  console.log(`API:          ${api.baseUrl}/api/v1  (ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  console.log(`DynamoDB:     ${ddb.endpoint} (table ${TABLE}, data in ${path.relative(process.cwd(), DATA_DIR) || '.'}/dynamodb)`);
  console.log(`Credentials:  ${CREDENTIALS}`);
  console.log(`Try:          curl -s -H "Authorization: Bearer $(node -p "require('${CREDENTIALS}').keys.read")" ${api.baseUrl}/api/v1/health`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    await api.close();
    await ddb.stop();
    rmSync(RUNTIME, { force: true });
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
