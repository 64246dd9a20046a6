/**
 * `npm run bench:scale [-- --quick] [--skip-purge]`: do the organization-wide reads stay flat as an organization grows?
 *
 * On a fresh in-memory DynamoDB Local it seeds a brokerage's year into ONE organization (bench/scale-seed.ts:
 * 10,000 deals, 100,000 tasks, 300,000 activity entries, 20,000 documents, 5,000 contacts; `--quick` a tenth) and
 * a 100-deal organization of the same shape, then sends each read over HTTP to the local runtime's real handlers
 * (lib/local/http-server.ts, in this process), alternating the two organizations, and reports p50/p99 of each, the
 * big/small ratio, and the items each call read (from `ReturnConsumedCapacity` and `Count`, by the middleware of
 * bench/round-trips.ts; auth included). Last, it times the workspace purge of the big organization
 * (shared/use-cases/workspace-purge.ts; its S3 prefixes are empty on a local s3rver). Writes .bench/scale.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { startDynamoDbLocal, type DynamoDbLocal } from '#lib/local/dynamodb-local';
import { ensureTable } from '#lib/local/ensure-table';
import { startLocalApi, type LocalApi } from '#lib/local/http-server';
import { startLocalS3, type LocalS3 } from '#lib/local/s3-local';
import { db, resetDbClient } from '#db/client';
import { createOrganization } from '#db/orgs';
import { recordDeletionScheduled } from '#db/workspace-deletion';
import { purgeWorkspace } from '#use-cases/workspace-purge';
import { DELETE_CONCURRENCY } from '#db/org-items';
import { dateOf } from '#domain/calendar';
import { BROKERAGE_YEAR, seedOrganization, type SeededOrg, type SeedSize } from './scale-seed.ts';
import { createKeyPool, type KeyPool } from './key-pool.ts';
import { installRoundTripCounter, type Capacity } from './round-trips.ts';
import { createHttpClient, type HttpClient } from './http-latency.ts';
import { divertStdout } from './function-output.ts';
import { fmt, median, percentile, table } from './stats.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, '.bench');
const QUICK = process.argv.includes('--quick');
/** `--skip-purge`: the reads only (the purge of the full organization takes about as long as seeding it). */
const SKIP_PURGE = process.argv.includes('--skip-purge');
const TABLE = 'tcs-bench-scale';
const log = (msg: string) => process.stderr.write(`[bench:scale] ${msg}\n`);
/** Target of issue 24: no big/small p50 ratio above this. */
const MAX_RATIO = 2;

const BIG: SeedSize = QUICK ? { ...BROKERAGE_YEAR, deals: BROKERAGE_YEAR.deals / 10, contacts: BROKERAGE_YEAR.contacts / 10 } : BROKERAGE_YEAR;
const SMALL: SeedSize = { ...BROKERAGE_YEAR, deals: 100, contacts: 50 };
const WARMUP = 5;
const N = QUICK ? 30 : 60;

interface Org {
  name: string;
  orgId: string;
  pool: KeyPool;
  seeded: SeededOrg;
}

interface Probe {
  name: string;
  path(org: Org, i: number): string;
  /** A problem with the response (wrong page size, no data), else undefined: a fast wrong answer is no answer. */
  check?(body: any): string | undefined;
}

const at = <T>(xs: T[], i: number) => xs[(i * 7919) % xs.length];
const enc = encodeURIComponent;

const PROBES: Probe[] = [
  { name: 'list deals', path: () => '/api/v1/transactions?pageSize=25', check: (b) => (b.data?.length === 25 ? undefined : `expected 25 deals, got ${b.data?.length}`) },
  { name: 'list deals, status', path: () => `/api/v1/transactions?pageSize=25&status=${enc('Under Contract')}`, check: (b) => (b.data?.length === 25 ? undefined : `expected 25 deals, got ${b.data?.length}`) },
  { name: 'list deals, q (city)', path: () => '/api/v1/transactions?pageSize=25&q=austin', check: (b) => (b.data?.length === 25 ? undefined : `expected 25 deals, got ${b.data?.length}`) },
  { name: 'list deals, q (street)', path: (o, i) => `/api/v1/transactions?pageSize=25&q=${enc(at(o.seeded.deals, i).propertyAddress.street.split(' ').slice(1, -1).join(' '))}`, check: (b) => (b.data?.length ? undefined : 'expected deals') },
  { name: 'list deals, q + status', path: () => `/api/v1/transactions?pageSize=10&q=austin&status=${enc('Under Contract')}`, check: (b) => (b.data?.length ? undefined : 'expected deals') },
  { name: 'resolve', path: (o, i) => `/api/v1/transactions/resolve?property=${enc(at(o.seeded.deals, i).propertyAddress.street)}`, check: (b) => (b.data?.length ? undefined : 'expected a match') },
  { name: 'upcoming key dates', path: () => '/api/v1/key-dates/upcoming?horizonDays=60&limit=25', check: (b) => (b.data?.length === 25 ? undefined : `expected 25 key dates, got ${b.data?.length}`) },
  { name: 'next actions', path: () => '/api/v1/next-actions?limit=20', check: (b) => (b.data?.length === 20 ? undefined : `expected 20 actions, got ${b.data?.length}`) },
  { name: 'open tasks', path: () => '/api/v1/tasks?limit=50', check: (b) => (b.data?.length === 50 ? undefined : `expected 50 tasks, got ${b.data?.length}`) },
  { name: 'open tasks, assignedTo=me', path: () => '/api/v1/tasks?limit=50&assignedTo=me', check: (b) => (b.data?.length === 50 ? undefined : `expected 50 tasks, got ${b.data?.length}`) },
  { name: 'contact search', path: () => '/api/v1/contacts?pageSize=10&q=title', check: (b) => (b.data?.length === 10 ? undefined : `expected 10 contacts, got ${b.data?.length}`) },
  { name: 'GET deal', path: (o, i) => `/api/v1/transactions/${at(o.seeded.deals, i).id}`, check: (b) => (b.data?.tasks?.length ? undefined : 'expected a deal with tasks') },
  { name: 'communications thread', path: (o, i) => `/api/v1/transactions/${at(o.seeded.deals, i).id}/communications`, check: (b) => (JSON.stringify(b).includes('Message 1') ? undefined : 'expected the deal\'s messages') },
];

interface Sample {
  ms: number;
  capacity: Capacity;
}

interface ProbeResult {
  name: string;
  small: { p50: number; p99: number; items: number; scanned: number; read: number };
  big: { p50: number; p99: number; items: number; scanned: number; read: number };
  ratioP50: number;
  ratioP99: number;
}

let ddb: DynamoDbLocal | undefined;
let s3: LocalS3 | undefined;
let api: LocalApi | undefined;
let client: HttpClient | undefined;
let s3Dir: string | undefined;

async function shutdown(): Promise<void> {
  client?.close();
  await api?.close().catch(() => undefined);
  await s3?.stop().catch(() => undefined);
  await ddb?.stop().catch(() => undefined);
  if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void shutdown().finally(() => process.exit(130)));

const summary = (xs: Sample[]) => ({
  p50: median(xs.map((x) => x.ms)),
  p99: percentile(xs.map((x) => x.ms), 99),
  items: median(xs.map((x) => x.capacity.items)),
  scanned: median(xs.map((x) => x.capacity.scanned)),
  read: median(xs.map((x) => x.capacity.read)),
});

async function probe(p: Probe, orgs: [Org, Org], counter: ReturnType<typeof installRoundTripCounter>): Promise<ProbeResult> {
  const samples: [Sample[], Sample[]] = [[], []];
  for (let i = 0; i < WARMUP + N; i++) {
    // Alternate which organization goes first, so drift (GC, the other engineers' load) hits both alike.
    for (const k of i % 2 ? [1, 0] : [0, 1]) {
      const org = orgs[k];
      const token = await org.pool.acquire('read');
      const mark = counter.mark();
      const r = await client!.send({ method: 'GET', path: p.path(org, i), token });
      if (r.status !== 200) throw new Error(`${p.name} (${org.name}): HTTP ${r.status} ${r.body.slice(0, 300)}`);
      const problem = p.check?.(JSON.parse(r.body));
      if (problem) throw new Error(`${p.name} (${org.name}): ${problem}`);
      if (i >= WARMUP) samples[k].push({ ms: r.ms, capacity: counter.capacitySince(mark) });
    }
  }
  const [small, big] = samples.map(summary);
  return { name: p.name, small, big, ratioP50: big.p50 / small.p50, ratioP99: big.p99 / small.p99 };
}

/** The report's header and probe table. */
function probeReport(seeds: Record<string, unknown>, results: ProbeResult[]): string[] {
  const out: string[] = [];
  out.push(`bench:scale ${QUICK ? '(--quick, a tenth of the big organization) ' : ''}on ${os.cpus().length} cores, DynamoDB Local in memory, over HTTP to the local runtime`);
  out.push(`Seeded: ${Object.entries(seeds).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join('; ')}`);
  out.push(`p50/p99 ms of ${N} calls per organization (alternating), big/small ratios, and per call: items read (Count/items returned by DynamoDB, median) and read units`);
  out.push(
    table(
      ['operation', 'small p50', 'small p99', 'big p50', 'big p99', 'p50 ratio', 'p99 ratio', 'items read small / big', 'items evaluated small / big', 'RCU small / big', `p50 ≤ ${MAX_RATIO}×`],
      results.map((r) => [
        r.name, fmt(r.small.p50), fmt(r.small.p99), fmt(r.big.p50), fmt(r.big.p99), `${fmt(r.ratioP50)}×`, `${fmt(r.ratioP99)}×`,
        `${r.small.items} / ${r.big.items}`, `${r.small.scanned} / ${r.big.scanned}`, `${fmt(r.small.read, 1)} / ${fmt(r.big.read, 1)}`, r.ratioP50 <= MAX_RATIO ? 'pass' : 'FAIL',
      ]),
    ),
  );
  return out;
}

async function main() {
  mkdirSync(OUT_DIR, { recursive: true });
  const restoreStdout = divertStdout(path.join(OUT_DIR, 'scale-function-output.jsonl'));
  const today = dateOf(new Date());
  let results: ProbeResult[] = [];
  let purge: { ms: number; items: number } | { error: string } = { error: 'not run' };
  let seeds: Record<string, unknown> = {};
  const failures: string[] = [];
  try {
    log('starting DynamoDB Local (in memory) and s3rver');
    ddb = await startDynamoDbLocal({ timeoutMs: 60_000 });
    s3Dir = mkdtempSync(path.join(os.tmpdir(), 'tcs-bench-scale-s3-'));
    s3 = await startLocalS3({ directory: s3Dir });
    Object.assign(process.env, { TABLE_NAME: TABLE, DYNAMODB_ENDPOINT: ddb.endpoint, AWS_REGION: 'local', S3_ENDPOINT: s3.endpoint, DOCUMENTS_BUCKET: s3.bucket });
    await ensureTable(ddb.endpoint, TABLE);
    resetDbClient();
    const counter = installRoundTripCounter(db());

    const orgs = [] as unknown as [Org, Org];
    for (const [name, size] of [['100-deal organization', SMALL], [`${BIG.deals.toLocaleString('en-US')}-deal organization`, BIG]] as const) {
      const o = await createOrganization({ name, ownerEmail: `owner-${randomUUID().slice(0, 8)}@bench.example`, ownerFirstName: 'Bench', ownerLastName: 'Owner' });
      log(`seeding ${name}: ${size.deals} deals, ${size.contacts} contacts`);
      const seeded = await seedOrganization(o.orgId, o.ownerUserId, size, today, log);
      log(`  ${seeded.items.toLocaleString('en-US')} items in ${fmt(seeded.ms / 1000, 1)} s (${Math.round(seeded.items / (seeded.ms / 1000))} items/s)`);
      orgs.push({ name, orgId: o.orgId, pool: await createKeyPool(o.orgId, o.ownerUserId, 6), seeded });
    }
    seeds = Object.fromEntries(orgs.map((o) => [o.name, { deals: o.seeded.deals.length, contacts: o.seeded.contacts.length, items: o.seeded.items, seconds: o.seeded.ms / 1000 }]));

    api = await startLocalApi({ port: 0 });
    client = createHttpClient(api.baseUrl, 4);
    for (const p of PROBES) {
      log(`${p.name}: ${WARMUP} + ${N} calls per organization`);
      try {
        results.push(await probe(p, orgs, counter));
      } catch (err) {
        log(`  ${String(err)}`);
        failures.push(`${p.name}: ${String(err)}`);
      }
    }

    // The probe table first: the purge of a big organization takes minutes on DynamoDB Local.
    process.stderr.write(`${probeReport(seeds, results).join('\n')}\n`);
    const big = orgs[1];
    if (SKIP_PURGE) purge = { error: 'skipped (--skip-purge)' };
    else {
      log(`purging the ${big.name}`);
      const deletionId = randomUUID();
      const past = new Date(Date.now() - 60_000).toISOString();
      await recordDeletionScheduled(big.orgId, { deletionId, state: 'scheduled', requestedAt: past, requestedBy: 'bench', dueAt: past, scheduleName: `purge-${deletionId}` });
      const t0 = Date.now();
      try {
        const out = await purgeWorkspace(big.orgId, deletionId, new Date());
        purge = { ms: Date.now() - t0, items: out.items };
      } catch (err) {
        purge = { error: String(err) };
      }
    }
  } finally {
    await shutdown();
    restoreStdout();
  }

  const out = probeReport(seeds, results);
  out.push(
    'ms' in purge
      ? `Workspace purge of the big organization: ${fmt(purge.ms / 1000, 1)} s for ${purge.items.toLocaleString('en-US')} items (${fmt(purge.items / (purge.ms / 1000), 0)} deletes/s, ${DELETE_CONCURRENCY} BatchWriteItem calls in flight; load average ${fmt(os.loadavg()[0], 1)})`
      : `Workspace purge: ${purge.error}`,
  );
  if (failures.length) out.push(`Probes that failed: ${failures.join('; ')}`);
  const text = out.join('\n');
  process.stdout.write(`${text}\n`);
  writeFileSync(path.join(OUT_DIR, `scale${QUICK ? '-quick' : ''}.json`), JSON.stringify({ quick: QUICK, seeds, results, failures, purge, at: new Date().toISOString() }, null, 2));
}

main().catch(async (err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  await shutdown();
  process.exit(1);
});
