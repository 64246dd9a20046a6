/**
 * `npm run start:assembly`: what `cdk deploy` ships, on this machine. Runs the synthesized cloud assembly
 * (`cdk.out`, or `ASSEMBLY_DIR`; `npm run synth` first) with lib/local/assembly/runtime.ts: every function's bundle
 * in its own sandbox with the template's environment, behind the template's routes, over DynamoDB Local (data in
 * `.data/assembly/dynamodb`), s3rver, local SQS and small stand-ins for the other services. Seeds the demo
 * organization on first start and prints its keys. `TCS_ASSEMBLY_LOGS=1` echoes every function's log lines.
 * Ctrl-C stops everything.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startAssemblyRuntime } from '#lib/local/assembly/runtime';
import { resetDbClient } from '#db/client';

const DATA_DIR = path.resolve(process.env.DATA_DIR ?? '.data/assembly');
const CDK_OUT = path.resolve(process.env.ASSEMBLY_DIR ?? 'cdk.out');
const CREDENTIALS = path.join(DATA_DIR, 'local-credentials.json');

async function main() {
  if (!existsSync(path.join(CDK_OUT, 'manifest.json'))) throw new Error(`${CDK_OUT} holds no cloud assembly: run npm run synth first`);
  mkdirSync(DATA_DIR, { recursive: true });
  const t0 = Date.now();
  const rt = await startAssemblyRuntime({ cdkOut: CDK_OUT, dataDir: DATA_DIR, port: Number(process.env.PORT ?? 3000) });
  const table = rt.assembly.root.ofType('AWS::DynamoDB::Table').map((id) => String(rt.assembly.root.resolve({ Ref: id })))[0]!;
  let creds = existsSync(CREDENTIALS) ? JSON.parse(readFileSync(CREDENTIALS, 'utf8')) : undefined;
  if (!creds) {
    // The operator's path, as `npm run admin org create` takes it: repositories on the runtime's table.
    Object.assign(process.env, { TABLE_NAME: table, DYNAMODB_ENDPOINT: rt.dynamoEndpoint });
    resetDbClient();
    const { seedDemo } = await import('#lib/local/seed');
    const seeded = await seedDemo();
    creds = { orgId: seeded.orgId, keys: seeded.keys };
    writeFileSync(CREDENTIALS, JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
  }
  console.log(`API:          ${rt.baseUrl}/api/v1  (${rt.functions.size} functions from ${path.relative(process.cwd(), CDK_OUT)}, ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  console.log(`Table:        ${table} on ${rt.dynamoEndpoint}`);
  console.log(`Mail:         ${rt.smtp.url}, stored in ${path.relative(process.cwd(), rt.smtp.directory)}`);
  console.log(`Credentials:  ${CREDENTIALS}`);
  console.log(`Try:          curl -s -H "Authorization: Bearer $(node -p "require('${CREDENTIALS}').keys.read")" ${rt.baseUrl}/api/v1/health`);
  const stop = async () => {
    await rt.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
