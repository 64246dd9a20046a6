/**
 * `npm run bench`: in one run, on an in-memory DynamoDB Local,
 *  - p50/p99 and requests/s of `GET /transactions/{id}`, `GET /transactions` (25 items) and
 *    `POST /transactions/{id}/key-dates` through the local HTTP path (real handlers, middy, auth),
 *  - beside the raw DynamoDB calls those operations need, issued directly with the same client, interleaved
 *    with the HTTP requests (so both see the same machine state),
 *  - DynamoDB round trips per HTTP request (auth included), counted by a client middleware,
 *  - issue 24's budgets (bench/budget-check.ts, the same check as `npm run bench:bundles`): every API group's and
 *    worker's bundle size, and module init in pairs of fresh processes against a bundle holding only a DynamoDB
 *    client (`--runs N` pairs per bundle, default 11),
 *  - the webhook pipeline on the local runtime: commit → first delivery latency, deliveries/s into a flaky
 *    receiver, events lost (`bench/webhooks.ts`, its own DynamoDB Local; `webhooks` in the JSON).
 *
 * The closing "Targets" table gives issue 24's verdicts in one place: round trips and write units of an authenticated
 * GET, the HTTP/raw ratio, the bundle and init budgets, and the webhook targets.
 * Speed targets are ratios against baselines taken in this run, never timed assertions: the process exits
 * 0 whatever the numbers (non-zero only when the bench itself fails). Results: stdout + `.bench/results.json`;
 * the functions' own output (JSON logs, EMF metrics) goes to `.bench/function-output.jsonl`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDynamoDbLocal, type DynamoDbLocal } from '#lib/local/dynamodb-local';
import { ensureTable } from '#lib/local/ensure-table';
import { startLocalApi, type LocalApi } from '#lib/local/http-server';
import { db, resetDbClient } from '#db/client';
import { createOrganization } from '#db/orgs';
import { createTransaction } from '#use-cases/create-transaction';
import { upsertKeyDates } from '#use-cases/key-dates';
import { createTask } from '#use-cases/tasks';
import { RATE_LIMITS, type Bucket } from '#db/api-keys';
import { addDays, dateOf } from '#domain/calendar';
import { createKeyPool, KEY_BUDGET, type KeyPool } from './key-pool.ts';
import { installRoundTripCounter, type Capacity, type RoundTripCounter } from './round-trips.ts';
import { createHttpClient, runConcurrent, type HttpCall, type HttpClient } from './http-latency.ts';
import { rawGetTransaction, rawListTransactions, rawUpsertKeyDate, type RawContext, type RawIteration } from './raw-dynamodb.ts';
import { BUDGETS, checkBudgets, type BudgetReport, type BudgetRow } from './budget-check.ts';
import { runWebhookBench, type WebhookBenchResult } from './webhooks.ts';
import { divertStdout } from './function-output.ts';
import { fmt, median, summarize, table, type LatencySummary } from './stats.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, '.bench');
const TABLE = 'bench';

const DEALS = 40;
const KEY_POOL_SIZE = 100;
const CONCURRENCY = 8;
/** Init samples (pairs of fresh processes) per bundle: `npm run bench -- --runs N`. */
const INIT_RUNS = Number(parseArgs({ options: { runs: { type: 'string', default: '11' } } }).values.runs);
const TARGETS = { getTxnRoundTrips: 2, getTxnRatio: 1.5, getTxnWriteUnits: 1 };

const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

interface OpDef {
  name: string;
  bucket: Bucket;
  warmup: number;
  n: number;
  concurrentN: number;
  http(i: number, key: string, worker?: number): HttpCall;
  raw(i: number, key: string): Promise<RawIteration>;
  check?(body: any): string | undefined;
}

interface OpResult {
  name: string;
  http: LatencySummary;
  concurrent: LatencySummary & { concurrency: number; errors: number };
  raw: LatencySummary;
  rawCalls: { name: string; p50: number }[];
  ratioP50: number;
  roundTrips: { typical: number; max: number; distribution: Record<string, number>; sequence: string[]; aboveTypical: number };
  rawRoundTrips: number;
  /** Median capacity per sequential HTTP request (auth included), from `ReturnConsumedCapacity`. */
  capacity: Capacity;
  errors: string[];
}

/** Seeds one organization, `DEALS` deals with 4 key dates and 3 tasks each (one following `ClosingDate`). */
async function seed(): Promise<{ orgId: string; userId: string; deals: string[] }> {
  const org = await createOrganization({ name: 'Bench Realty', ownerEmail: 'owner@bench.example', ownerFirstName: 'Bench', ownerLastName: 'Owner' });
  const actor = { orgId: org.orgId, userId: org.ownerUserId };
  const today = dateOf(new Date());
  const deals: string[] = new Array(DEALS);
  const one = async (n: number) => {
    const now = new Date();
    const t = await createTransaction(actor, { propertyAddress: { street: `${100 + n} Bench St`, city: 'Austin', state: 'TX', zip: '78704' }, transactionType: 'Purchase', side: 'Buyer', status: 'Under Contract' }, undefined, now);
    await upsertKeyDates(actor, t.id, [
      { keyDateType: 'EffectiveDate', dateValue: today },
      { keyDateType: 'InspectionDeadline', dateValue: addDays(today, 7) },
      { keyDateType: 'EarnestMoneyDue', dateValue: addDays(today, 3) },
      { keyDateType: 'ClosingDate', dateValue: addDays(today, 30) },
    ], now);
    await createTask(actor, t.id, { title: 'Send executed contract to lender and title', dueDate: addDays(today, 1), priority: 1 }, now);
    await createTask(actor, t.id, { title: 'Confirm survey delivered or waived', linkedMilestoneName: 'InspectionDeadline' }, now);
    await createTask(actor, t.id, { title: 'Schedule final walkthrough', linkedMilestoneName: 'ClosingDate', dueDate: addDays(today, 29) }, now);
    deals[n] = t.id;
  };
  for (let i = 0; i < DEALS; i += 8) await Promise.all(Array.from({ length: Math.min(8, DEALS - i) }, (_, j) => one(i + j)));
  return { orgId: org.orgId, userId: org.ownerUserId, deals };
}

/** Warm-up, then the sequential run (HTTP request and raw iteration interleaved, order alternating), then the concurrent HTTP run. */
async function benchOperation(op: OpDef, client: HttpClient, pool: KeyPool, counter: RoundTripCounter): Promise<OpResult> {
  const errors: string[] = [];
  const expectOk = (status: number, body: string) => {
    if (status !== 200) throw new Error(`${op.name}: HTTP ${status} ${body.slice(0, 300)}`);
    const problem = op.check?.(JSON.parse(body));
    if (problem) throw new Error(`${op.name}: ${problem}`);
  };
  log(`${op.name}: warm-up (${op.warmup})`);
  for (let i = 0; i < op.warmup; i++) {
    const r = await client.send(op.http(i, await pool.acquire(op.bucket)));
    expectOk(r.status, r.body);
    await op.raw(i, await pool.acquire(op.bucket));
  }

  log(`${op.name}: ${op.n} sequential HTTP requests interleaved with ${op.n} raw iterations`);
  const httpMs: number[] = [];
  const rawIters: RawIteration[] = [];
  const perRequest: string[][] = [];
  const perRequestCapacity: Capacity[] = [];
  const httpOnce = async (i: number) => {
    const call = op.http(op.warmup + i, await pool.acquire(op.bucket));
    const mark = counter.mark();
    const r = await client.send(call);
    perRequest.push(counter.since(mark));
    perRequestCapacity.push(counter.capacitySince(mark));
    expectOk(r.status, r.body);
    httpMs.push(r.ms);
  };
  const rawOnce = async (i: number) => rawIters.push(await op.raw(op.warmup + i, await pool.acquire(op.bucket)));
  for (let i = 0; i < op.n; i++) {
    if (i % 2 === 0) {
      await httpOnce(i);
      await rawOnce(i);
    } else {
      await rawOnce(i);
      await httpOnce(i);
    }
  }

  log(`${op.name}: ${op.concurrentN} HTTP requests at concurrency ${CONCURRENCY}`);
  const base = op.warmup + op.n;
  const conc = await runConcurrent(op.concurrentN, CONCURRENCY, async (i, worker) => {
    const r = await client.send(op.http(base + i, await pool.acquire(op.bucket), worker));
    expectOk(r.status, r.body);
    return r.ms;
  });
  errors.push(...conc.errors);

  const counts = perRequest.map((s) => s.length);
  const distribution: Record<string, number> = {};
  counts.forEach((c) => (distribution[c] = (distribution[c] ?? 0) + 1));
  const typical = Number(Object.entries(distribution).sort((a, b) => b[1] - a[1])[0][0]);
  const raw = summarize(rawIters.map((r) => r.totalMs));
  const http = summarize(httpMs);
  const callNames = rawIters[0].calls.map((c) => c.name);
  return {
    name: op.name,
    http,
    concurrent: { ...summarize(conc.samplesMs, conc.elapsedMs), concurrency: CONCURRENCY, errors: conc.errors.length },
    raw,
    rawCalls: callNames.map((name, j) => ({ name, p50: median(rawIters.map((r) => r.calls[j].ms)) })),
    ratioP50: http.p50 / raw.p50,
    roundTrips: {
      typical,
      max: Math.max(...counts),
      distribution,
      sequence: perRequest.find((s) => s.length === typical)!,
      // A request that lands in a new minute window before the pool re-primes its key pays the window roll (+1 TransactWrite).
      aboveTypical: perRequest.filter((s) => s.length > typical).length,
    },
    rawRoundTrips: callNames.length,
    capacity: {
      read: median(perRequestCapacity.map((c) => c.read)),
      write: median(perRequestCapacity.map((c) => c.write)),
      indexWrite: median(perRequestCapacity.map((c) => c.indexWrite)),
      items: median(perRequestCapacity.map((c) => c.items)),
      scanned: median(perRequestCapacity.map((c) => c.scanned)),
    },
    errors,
  };
}

let ddb: DynamoDbLocal | undefined;
let api: LocalApi | undefined;
let client: HttpClient | undefined;
let stopping: Promise<void> | undefined;
let interrupted = false;

/** Stops whatever this run started; every caller awaits the same shutdown. */
function shutdown(): Promise<void> {
  stopping ??= (async () => {
    client?.close();
    await api?.close().catch(() => undefined);
    await ddb?.stop().catch(() => undefined);
  })();
  return stopping;
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    interrupted = true;
    log(`${sig}: stopping DynamoDB Local`);
    void shutdown().finally(() => process.exit(130));
  });
}

async function main() {
  const started = Date.now();
  mkdirSync(OUT_DIR, { recursive: true });
  const restoreStdout = divertStdout(path.join(OUT_DIR, 'function-output.jsonl'));
  let ops: OpResult[] = [];
  const loadAvgStart = os.loadavg()[0];
  let setup: Record<string, unknown> = {};

  try {
    log('starting DynamoDB Local (in memory)');
    ddb = await startDynamoDbLocal({ timeoutMs: 60_000 });
    process.env.TABLE_NAME = TABLE;
    process.env.DYNAMODB_ENDPOINT = ddb.endpoint;
    process.env.AWS_REGION = 'local';
    await ensureTable(ddb.endpoint, TABLE);
    resetDbClient();
    const doc = db();
    const counter = installRoundTripCounter(doc);

    log(`seeding 1 organization, ${DEALS} deals × (4 key dates, 3 tasks)`);
    const { orgId, userId, deals } = await seed();
    log(`creating a pool of ${KEY_POOL_SIZE} API keys (all scopes)`);
    const pool = await createKeyPool(orgId, userId, KEY_POOL_SIZE);

    api = await startLocalApi({ port: 0 });
    client = createHttpClient(api.baseUrl, CONCURRENCY * 2);
    const ctx: RawContext = { doc, table: TABLE, orgId, userId };
    let dateSeq = 0;
    const nextDate = () => addDays('2027-01-01', dateSeq++);
    const deal = (i: number) => deals[i % DEALS];
    // Concurrent writers never share a deal (worker w only touches deals ≡ w mod CONCURRENCY): no transaction conflicts.
    const dealOfWorker = (i: number, worker: number) => deals[worker + CONCURRENCY * (i % Math.floor(DEALS / CONCURRENCY))];

    const defs: OpDef[] = [
      {
        name: 'GET /transactions/{id}',
        bucket: 'read',
        warmup: 40,
        n: 300,
        concurrentN: 400,
        http: (i, token) => ({ method: 'GET', path: `/api/v1/transactions/${deal(i)}`, token }),
        raw: (i, key) => rawGetTransaction(ctx, key, deal(i)),
        check: (b) => (b.data?.keyDates?.length === 4 && b.data?.tasks?.length === 3 ? undefined : 'expected 4 key dates and 3 tasks'),
      },
      {
        name: 'GET /transactions (25)',
        bucket: 'read',
        warmup: 40,
        n: 300,
        concurrentN: 400,
        http: (_i, token) => ({ method: 'GET', path: '/api/v1/transactions?pageSize=25', token }),
        raw: (_i, key) => rawListTransactions(ctx, key, 25),
        check: (b) => (b.data?.length === 25 && b.hasMore === true ? undefined : `expected 25 deals and hasMore, got ${b.data?.length}`),
      },
      {
        name: 'POST /transactions/{id}/key-dates',
        bucket: 'write',
        warmup: 20,
        n: 200,
        concurrentN: 200,
        http: (i, token, worker) => ({
          method: 'POST',
          path: `/api/v1/transactions/${worker === undefined ? deal(i) : dealOfWorker(i, worker)}/key-dates`,
          token,
          body: { keyDates: [{ keyDateType: 'ClosingDate', dateValue: nextDate() }] },
        }),
        // Raw iterations use the other half of the deals so HTTP and raw never write the same deal back to back.
        raw: (i, key) => rawUpsertKeyDate(ctx, key, deal(i + DEALS / 2), 'ClosingDate', nextDate()),
        check: (b) => (b.data?.[0]?.keyDateType === 'ClosingDate' ? undefined : 'expected the ClosingDate key date back'),
      },
    ];
    for (const def of defs) ops.push(await benchOperation(def, client, pool, counter));
    setup = {
      dynamodbLocal: ddb.endpoint,
      loadAvgStart,
      deals: DEALS,
      keyPool: { size: pool.size, budgetPerKeyPerMinute: KEY_BUDGET, rateLimits: RATE_LIMITS, primes: pool.primes, waitsForNextMinute: pool.waits },
    };
  } finally {
    await shutdown();
  }

  const budgets = await checkBudgets(INIT_RUNS);
  const webhooks = await runWebhookBench();
  await restoreStdout();
  report(ops, budgets, setup, (Date.now() - started) / 1000, webhooks);
}

const pf = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

function report(ops: OpResult[], budgets: BudgetReport, setup: Record<string, any>, seconds: number, webhooks: WebhookBenchResult) {
  const out: string[] = [];
  const kp = setup.keyPool;
  out.push('Benchmark — local HTTP path vs raw DynamoDB (same run, same DynamoDB Local, same client)');
  out.push(`node ${process.version}, ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ''}, load average ${fmt(setup.loadAvgStart, 1)} at start / ${fmt(os.loadavg()[0], 1)} at end; DynamoDB Local in memory; ${setup.deals} deals × (4 key dates, 3 tasks)`);
  out.push(
    `Rate limits unchanged (${kp.rateLimits.read} reads / ${kp.rateLimits.write} writes per key per minute): requests rotate over a pool of ${kp.size} API keys (all scopes), ` +
      `each used for at most ${kp.budgetPerKeyPerMinute.read} reads / ${kp.budgetPerKeyPerMinute.write} writes per minute window. A key's first use in a window (the window roll, ` +
      `+1 TransactWriteItems) is done untimed before its timed requests: ${kp.primes} rolls, ${kp.waitsForNextMinute} waits for a new minute.`,
  );
  out.push('');
  out.push('Latency (ms). Sequential: one request at a time, HTTP requests interleaved with raw iterations; req/s = 1000 / mean. Concurrent: wall clock.');
  out.push(
    table(
      ['operation', 'n', 'HTTP p50', 'HTTP p99', 'seq req/s', `c${CONCURRENCY} n`, `c${CONCURRENCY} p50`, `c${CONCURRENCY} p99`, `c${CONCURRENCY} req/s`, 'raw p50', 'raw p99', 'raw req/s', 'HTTP/raw p50'],
      ops.map((o) => [o.name, o.http.n, fmt(o.http.p50), fmt(o.http.p99), fmt(o.http.rps, 0), o.concurrent.n, fmt(o.concurrent.p50), fmt(o.concurrent.p99), fmt(o.concurrent.rps, 0), fmt(o.raw.p50), fmt(o.raw.p99), fmt(o.raw.rps, 0), `${fmt(o.ratioP50)}×`]),
    ),
  );
  out.push('');
  out.push('Raw calls (p50 ms each; "raw p50" above is the p50 of their per-iteration sum)');
  out.push(table(['operation', 'raw calls'], ops.map((o) => [o.name, o.rawCalls.map((c) => `${c.name} ${fmt(c.p50)}`).join(' + ')])));
  out.push('');
  out.push('DynamoDB round trips per HTTP request (auth included), counted by a middleware on the document client');
  out.push(
    table(
      ['operation', 'typical', 'max', 'distribution', 'raw', 'calls (typical request)'],
      ops.map((o) => [o.name, o.roundTrips.typical, o.roundTrips.max, Object.entries(o.roundTrips.distribution).map(([k, v]) => `${k}:${v}`).join(' '), o.rawRoundTrips, o.roundTrips.sequence.join(' → ')]),
    ),
  );
  out.push('');
  out.push('DynamoDB capacity per HTTP request (auth included; median of the sequential requests; ReturnConsumedCapacity INDEXES asked by the bench\'s middleware)');
  out.push(
    table(
      ['operation', 'read units', 'write units', 'of which GSI writes', 'items read', 'items evaluated'],
      ops.map((o) => [o.name, fmt(o.capacity.read, 1), fmt(o.capacity.write, 1), fmt(o.capacity.indexWrite, 1), o.capacity.items, o.capacity.scanned]),
    ),
  );
  out.push('');
  out.push(budgets.text);
  out.push('');

  const get = ops.find((o) => o.name === 'GET /transactions/{id}')!;
  const api = budgets.rows.filter((r) => r.kind === 'api');
  const workers = budgets.rows.filter((r) => r.kind === 'worker');
  const largest = (rows: BudgetRow[]) => rows.reduce((a, b) => (b.kb > a.kb ? b : a));
  const slowest = api.reduce((a, b) => (b.initRatio > a.initRatio ? b : a));
  const failing = (rows: BudgetRow[], ok: (r: BudgetRow) => boolean) => rows.filter((r) => !ok(r)).map((r) => r.name);
  const listed = (names: string[]) => (names.length ? `; over: ${names.join(', ')}` : '');
  const targets = [
    { target: `GET /transactions/{id} round trips ≤ ${TARGETS.getTxnRoundTrips}`, value: `${get.roundTrips.typical} (max ${get.roundTrips.max})`, pass: get.roundTrips.typical <= TARGETS.getTxnRoundTrips },
    { target: `GET /transactions/{id} write units ≤ ${TARGETS.getTxnWriteUnits} (its rate-limit counter)`, value: `${fmt(get.capacity.write, 1)} (of which GSI ${fmt(get.capacity.indexWrite, 1)})`, pass: get.capacity.write <= TARGETS.getTxnWriteUnits },
    { target: `GET /transactions/{id} p50 ≤ ${TARGETS.getTxnRatio}× raw calls' sum`, value: `${fmt(get.ratioP50)}× (${fmt(get.http.p50)} / ${fmt(get.raw.p50)} ms)`, pass: get.ratioP50 <= TARGETS.getTxnRatio },
    { target: `every API bundle ≤ ${BUDGETS.apiKb} KB`, value: `largest ${largest(api).name} ${fmt(largest(api).kb, 1)} KB${listed(failing(api, (r) => r.sizeOk))}`, pass: api.every((r) => r.sizeOk) },
    { target: `every worker bundle ≤ ${BUDGETS.workerKb} KB`, value: `largest ${largest(workers).name} ${fmt(largest(workers).kb, 1)} KB${listed(failing(workers, (r) => r.sizeOk))}`, pass: workers.every((r) => r.sizeOk) },
    { target: `every API init ≤ ${BUDGETS.apiInitRatio}× baseline (median of ${INIT_RUNS} pairs)`, value: `worst ${slowest.name} ${fmt(slowest.initRatio)}× (CPU ${fmt(slowest.initCpuRatio)}×)${listed(failing(api, (r) => r.initOk))}`, pass: api.every((r) => r.initOk) },
    ...webhooks.targets.map((t) => ({ ...t, target: `webhooks: ${t.target}` })),
  ];
  out.push('Targets (ratios against baselines measured in this run; reported, never asserted)');
  out.push(table(['target', 'measured', 'result'], targets.map((t) => [t.target, t.value, pf(t.pass)])));
  const errors = ops.flatMap((o) => o.errors.map((e) => `${o.name}: ${e}`));
  if (errors.length) out.push(`\n${errors.length} request error(s) during concurrent runs, e.g. ${errors[0]}`);
  out.push('', webhooks.text);
  out.push(`\nTook ${seconds.toFixed(1)} s. JSON: ${path.relative(ROOT, path.join(OUT_DIR, 'results.json'))}`);
  console.log(out.join('\n'));

  writeFileSync(
    path.join(OUT_DIR, 'results.json'),
    JSON.stringify({ finishedAt: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadAvgEnd: os.loadavg()[0], seconds, setup, targets, operations: ops, budgets: { ...budgets, text: undefined }, webhooks: { ...webhooks, text: undefined } }, null, 2) + '\n',
  );
}

main().then(
  () => process.exit(0),
  async (err) => {
    if (!interrupted) console.error('[bench] failed:', err);
    await shutdown();
    process.exit(interrupted ? 130 : 1);
  },
);
