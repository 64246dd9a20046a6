/**
 * Property-based fuzzing of the edge (issue 8, spec "Errors", "Conventions", "Limits"): for every implemented
 * operation of the registry, its valid example request — bound to real resources of the organization — is
 * mutated with generated bad input (test/support/fuzz-inputs.ts) and sent over HTTP to the local API. Every
 * answer must be below 500; every 4xx must be the envelope `{error:{code,message,fields?}}` with the code its
 * status stands for; a refused (4xx) request must store nothing: no item of any organization or of none (lookups,
 * consents, partners) written, changed or deleted, by any client — read from the table's stream after every refusal
 * (test/support/table-changes.ts), the pipeline's own per-request items aside (test/support/table-snapshot.ts) —
 * and no file stored or removed (the bucket listed again whenever the local S3 reported a change,
 * test/support/write-log.ts). The valid body plus one unknown field must be a 422 `validation_error` naming that
 * field (strict input, issue 25).
 *
 * Deterministic: a fixed seed per operation (`FUZZ_SEED`, default 8008, mixed with the operation id) and
 * `FUZZ_RUNS` generated cases per operation (default 10), plus a few fixed cases per operation. The request
 * clock advances 1.5 s per request, so no key ever reaches its rate limit. Each file has one table (each table an
 * engine makes slows its later work, test/support/global-setup.ts); each operation gets two fresh organizations and
 * fixtures of its own. `FUZZ_PROFILE=1` prints where the engine's CPU went (test/support/fuzz-profile.ts).
 * A failure names the operation and prints the shrunk mutations, the request sent and the answer.
 *
 * The operations are split by group over the `fuzz-edge-*.test.ts` files, so two workers share the suite;
 * `fuzzEdge` checks that together they cover every implemented operation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#db/client';
import fc from 'fast-check';
import { isImplemented, schemasOf } from '#api/operation';
import { UNKNOWN_FIELD_MESSAGE } from '#api/strict';
import { loadOperations, type ModuleOperation } from '#lib/registry';
import { setClock } from '#ports/clock';
import { startTestApi, type TestApi } from '../support/http-client.ts';
import { useTestTable } from '../support/test-table.ts';
import { sendRaw } from '../support/raw-http.ts';
import { snapshotDiff, storedFiles } from '../support/table-snapshot.ts';
import { storedLines, TableChanges } from '../support/table-changes.ts';
import { WriteLog } from '../support/write-log.ts';
import { FuzzProfile } from '../support/fuzz-profile.ts';
import { envelopeProblem } from '../support/envelope-check.ts';
import { Big, fuzzCase, type BodyPath, type Mutation, type OperationSpace } from '../support/fuzz-inputs.ts';
import { describeRequest, render } from '../support/fuzz-request.ts';
import { FUZZ_ORG_NAME, FuzzFixtures } from './fuzz-fixtures.ts';
import { startTestS3, type TestS3 } from './documents-fixtures.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalMessaging, type LocalMessaging } from '#lib/local/messaging';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? 8008);
/** `FUZZ_SURVEY=1` records every violation and goes on (no shrinking), then lists them: to survey a build. */
const SURVEY = process.env.FUZZ_SURVEY === '1';

/** Operation groups (lib/registry.ts) per fuzz-edge test file, about 40 operations each. */
export const FUZZ_SHARDS = {
  deals: ['meta', 'transactions', 'key-dates', 'tasks', 'contacts', 'proposals', 'reports'],
  documents: ['documents', 'extractions', 'messaging', 'disclosures'],
  workspace: ['templates', 'webhooks', 'account', 'partner'],
} as const satisfies Record<string, readonly string[]>;

/** Paths of every value of a JSON value (containers too), depth first. */
function pathsOf(v: unknown, prefix: BodyPath = []): BodyPath[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => [[...prefix, i], ...pathsOf(x, [...prefix, i])]);
  if (typeof v === 'object' && v !== null) return Object.entries(v).flatMap(([k, x]) => [[...prefix, k], ...pathsOf(x, [...prefix, k])]);
  return [];
}

/** Keys of an object schema, looking through optional, nullable, default and pipe wrappers. */
function shapeKeys(schema: unknown): string[] {
  let def = (schema as { _zod?: { def: { type: string; shape?: object; innerType?: unknown; in?: unknown } } } | undefined)?._zod?.def;
  while (def && def.type !== 'object') {
    const next = def.innerType ?? def.in;
    def = (next as { _zod?: { def: typeof def } } | undefined)?._zod?.def;
  }
  return def?.shape ? Object.keys(def.shape) : [];
}

function spaceOf(op: ModuleOperation): OperationSpace {
  const s = schemasOf(op);
  const example = op.example?.body;
  const paths = new Map<string, BodyPath>();
  for (const p of [...pathsOf(example), ...shapeKeys(s.body).map((k) => [k])]) paths.set(JSON.stringify(p), p);
  return {
    pathParams: [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
    queryKeys: [...new Set([...shapeKeys(s.query), ...Object.keys(op.example?.query ?? {})])],
    bodyPaths: [...paths.values()],
    hasBody: s.body !== undefined,
  };
}

/** A body field no operation defines (a typo of `dueDate`, as in issue 25). */
const UNKNOWN_FIELD = 'due';

/** Cases every operation gets whatever the seed: the bug classes of issue 8 at their simplest. */
function fixedCases(space: OperationSpace): Mutation[][] {
  const cases: Mutation[][] = [[{ kind: 'query.raw', text: '__proto__=1&constructor=x' }]];
  const [param] = space.pathParams;
  if (param) cases.push([{ kind: 'path.set', name: param, value: new Big('x', 5000) }], [{ kind: 'path.raw', name: param, text: '%ED%A0%80' }]);
  if (space.hasBody) {
    const top = space.bodyPaths.filter((p) => p.length === 1);
    cases.push(
      [{ kind: 'body.text', text: '{"__proto__":{"polluted":true}}' }],
      [{ kind: 'body.bytes', hex: 'ff' }],
      top.map((path) => ({ kind: 'body.set', path, value: '\ud800' })),
      // One field at a time: a map keyed by Object members, and a string past the sort-key limit (1024 bytes).
      ...top.map((path): Mutation[] => [{ kind: 'body.set', path, value: { constructor: 'x', toString: 'x', valueOf: 'x' } }]),
      ...top.map((path): Mutation[] => [{ kind: 'body.set', path, value: new Big('x', 2049) }]),
    );
  }
  return cases;
}

/** Stable per-operation seed, so adding an operation does not change the cases of the others. */
const seedOf = (operationId: string) => [...operationId].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, SEED);

/**
 * Registers the suite for the implemented operations of one shard's groups, on its own local API, S3 and
 * messaging transports; the file also checks that the shards together cover every group.
 */
export async function fuzzEdge(shard: keyof typeof FUZZ_SHARDS): Promise<void> {
  const all = (await loadOperations()).filter(isImplemented);
  const groups: readonly string[] = FUZZ_SHARDS[shard];
  const ops = all.filter((op) => groups.includes(op.group));
  const violations: string[] = [];
  let t: TestApi;
  let s3: TestS3;
  let messaging: LocalMessaging;
  const messagingDir = mkdtempSync(path.join(tmpdir(), 'fuzz-messaging-'));
  const savedLocal = process.env.LOCAL_MODE;
  const stats = { requests: 0, listings: 0, byStatus: new Map<number, number>() };
  const writes = new WriteLog();
  const profile = new FuzzProfile();
  let changes: TableChanges;
  /** `writes.count` when the stream was last read. */
  let readAt = -1;
  /** The bucket's files as listed after the S3 change counted last (the local S3 reports every change, write-log.ts). */
  let files: { keys: string[]; events: number } | undefined;
  const currentFiles = async () => {
    if (files?.events !== writes.fileEvents) {
      const events = writes.fileEvents;
      stats.listings++;
      files = { keys: await storedFiles(), events };
    }
    return files;
  };
  let clock = Date.now();

  beforeAll(async () => {
    process.env.LOCAL_MODE = 'true';
    t = await startTestApi();
    s3 = await startTestS3();
    writes.watchS3(s3);
    // Real local transports (SMTP server, SMS sink, scheduler) for the messaging operations; the scheduler never
    // fires here (the fixture's email is due in a year), so it polls rarely and leaves the request clock alone.
    messaging = await startLocalMessaging({ dataDir: messagingDir, tableName: 'fuzz', baseUrl: t.baseUrl, schedulerIntervalMs: 3_600_000 });
    // Each request reads the clock once: 1.5 s per request keeps every key under 60 writes a minute.
    setClock(() => (clock += 1500));
    // One table for the file (test-table.ts); after the servers start, which drop the cached DynamoDB client.
    const { tableName, endpoint } = await profile.time('CreateTable', () => useTestTable({ mayMoveEngine: true }));
    changes = new TableChanges(endpoint, tableName);
    await changes.start();
    writes.watchDb(db());
  });
  afterAll(async () => {
    setClock();
    await t?.close();
    await s3?.close();
    await messaging?.stop();
    changes?.close();
    rmSync(messagingDir, { recursive: true, force: true });
    if (savedLocal === undefined) delete process.env.LOCAL_MODE;
    else process.env.LOCAL_MODE = savedLocal;
    const byStatus = [...stats.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    if (SURVEY) console.log(`fuzz-edge survey: ${violations.length} violations\n${violations.join('\n\n')}`);
    const profiled = profile.report();
    if (profiled) console.log(profiled);
    console.log(`fuzz-edge ${shard}: ${ops.length} operations, ${stats.requests} requests, ${stats.listings} file listings (FUZZ_RUNS=${RUNS}, FUZZ_SEED=${SEED}): ${byStatus}`);
  });

  it('the fuzz-edge files together fuzz every implemented operation', () => {
    const covered = new Set<string>(Object.values(FUZZ_SHARDS).flat());
    expect(all.filter((op) => !covered.has(op.group)).map((op) => op.operationId)).toEqual([]);
    expect(ops.length).toBeGreaterThan(0);
  });

  describe('the edge refuses bad input with the envelope, never a 5xx, and a refused request stores nothing', () => {
    it.each(ops.map((op) => [op.operationId, op] as const))('%s', async (_id, op) => {
      const [org, other] = await profile.time('organizations', () => Promise.all([t.newOrg(FUZZ_ORG_NAME), t.newOrg('Other Fuzz Realty')]));
      // The stream shows this table's writes (the organizations'), so a read that finds none means nothing was stored.
      readAt = writes.count;
      expect(storedLines(await changes.read())).not.toEqual([]);
      const fx = new FuzzFixtures(t, org, other);
      const space = spaceOf(op);
      const check = async (mutations: Mutation[], expectRefusal?: (status: number, text: string) => string | undefined) => {
        const valid = await profile.time('fixtures', () => fx.validRequest(op));
        const req = render(valid, mutations, await profile.time('fixtures', () => fx.credentials(op)));
        await s3.idle();
        // What the fixtures and earlier requests wrote is not this request's. Read when the app's client wrote since
        // the last read (write-log.ts); a write the log missed would count as the request's: a false alarm, never a miss.
        if (writes.count !== readAt) {
          readAt = writes.count;
          await profile.time('stream reads', () => changes.read());
        }
        const filesBefore = await currentFiles();
        const res = await profile.time('requests', async () => {
          const r = await sendRaw(t.baseUrl, req);
          await s3.idle();
          return r;
        });
        stats.requests++;
        stats.byStatus.set(res.status, (stats.byStatus.get(res.status) ?? 0) + 1);
        const problems: string[] = [];
        if (res.status >= 500) problems.push(`status ${res.status}`);
        else if (res.status < 200 || (res.status >= 300 && res.status < 400)) problems.push(`unexpected status ${res.status}`);
        if (res.status >= 400) {
          const envelope = envelopeProblem(res.status, res.headers['content-type'], res.text);
          if (envelope) problems.push(`not the envelope: ${envelope}`);
        }
        const expected = expectRefusal?.(res.status, res.text);
        if (expected) problems.push(expected);
        if (res.status >= 400 && res.status < 500) {
          // Every write of the table since the read above, by any client: the request's.
          readAt = writes.count;
          const written = await profile.time('stream reads', () => changes.read());
          const filesAfter = await currentFiles();
          const stored = [...storedLines(written), ...snapshotDiff({ items: [], files: filesBefore.keys }, { items: [], files: filesAfter.keys })];
          if (stored.length) problems.push(`a refused request stored:\n    ${stored.slice(0, 6).join('\n    ')}`);
        }
        if (problems.length) {
          const report = `${op.operationId}: ${problems.join('; ')}\n  mutations: ${fc.stringify(mutations)}\n  ${describeRequest(req)}\n  → ${res.status} ${res.text.slice(0, 400)}`;
          if (!SURVEY) throw new Error(report);
          violations.push(report);
        }
        if (res.status < 300 && op.method !== 'GET') await profile.time('recheck', () => fx.recheck());
        return res.status;
      };
      // Strict input (issue 25): the valid body plus one field the operation does not define is a 422 naming it,
      // and (checked by `check`, as for every refusal) stores nothing. Bodies that are objects only: a free-form
      // map at the top would take any key. Sent before the valid request, whose effect (a workspace frozen for
      // deletion) could refuse it first for another reason.
      if (space.hasBody && shapeKeys(schemasOf(op).body).length) {
        const status = await check([{ kind: 'body.set', path: [UNKNOWN_FIELD], value: '2026-12-01' }], (status, text) => {
          const error = status === 422 ? (JSON.parse(text) as { error?: { code?: string; fields?: Record<string, string> } }).error : undefined;
          return error?.code === 'validation_error' && error.fields?.[UNKNOWN_FIELD] === UNKNOWN_FIELD_MESSAGE
            ? undefined
            : `an unknown body field '${UNKNOWN_FIELD}' must be a 422 validation_error naming it`;
        });
        expect(status).toBe(422);
      }
      // The unmutated request reaches the handler and succeeds: the cases below start from a valid request.
      expect(await check([])).toBe(200);
      const examples = fixedCases(space).map((c) => [c] as [Mutation[]]);
      // fast-check counts the examples among the runs.
      await fc.assert(fc.asyncProperty(fuzzCase(space), async (m) => void (await check(m))), { seed: seedOf(op.operationId), numRuns: RUNS + examples.length, examples });
    }, 180_000);
  });
}
