/**
 * The full local runtime (`startLocalRuntime`) for end-to-end tests: on the suite's DynamoDB Local, a fresh
 * table and a temporary data directory each; plus per-test cleanups and the common webhook setup (a receiver,
 * an organization subscribed to `*`, a deal).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '#lib/local/runtime';
import { apiClient, EventMaker, newDeal, newOrg, startWebhookReceiver, subscribe, type Api, type Behaviour, type WebhookReceiver } from './webhook-receiver.ts';
import { workerDynamoEndpoint } from './dynamo-endpoint.ts';

/** Cleanup steps, run last-in first-out after each test (a failing step is logged, the others still run). */
export type Cleanups = (() => Promise<unknown>)[];

/** Registers the `afterEach` that empties the returned list. Call once per test file, at the top level. */
export function useCleanups(): Cleanups {
  const cleanups: Cleanups = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!().catch((err) => console.error('cleanup failed', err));
  });
  return cleanups;
}

/** A running local runtime and how to end it (stops it, then deletes its data directory). */
export interface TestRuntime {
  rt: LocalRuntime;
  close(): Promise<void>;
}

/** Starts the local runtime on table `<prefix>-<random>` and a temporary data directory named after `prefix`. */
export async function startTestRuntime(prefix: string): Promise<TestRuntime> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  const rt = await startLocalRuntime({ dynamoEndpoint: workerDynamoEndpoint(), tableName: `${prefix}-${randomUUID().slice(0, 8)}`, port: 0, dataDir });
  return {
    rt,
    async close() {
      await rt.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What {@link setupSubscribedDeal} gives a test. */
export interface WebhookHarness {
  rt: LocalRuntime;
  api: Api;
  receiver: WebhookReceiver;
  org: Awaited<ReturnType<typeof newOrg>>;
  sub: { id: string; secret: string; url: string };
  maker: EventMaker;
}

/**
 * A runtime on a fresh table, a receiver behaving as `behaviour`, an organization subscribed to `*` (timeout
 * 1 s), then a deal; everything is stopped by `cleanups`.
 */
export async function setupSubscribedDeal(cleanups: Cleanups, behaviour: Behaviour = 'ok'): Promise<WebhookHarness> {
  const { rt, close } = await startTestRuntime('whd');
  cleanups.push(close);
  const receiver = await startWebhookReceiver({ behaviour });
  cleanups.push(() => receiver.close());
  const api = apiClient(rt.baseUrl);
  const org = await newOrg();
  const sub = await subscribe(api, org.keys.actions, `${receiver.url}/hook`);
  receiver.setSecret(sub.secret);
  // The deal comes after the subscription, so its transaction.created is delivered too.
  const maker = new EventMaker(api, org.keys, await newDeal(org));
  return { rt, api, receiver, org, sub, maker };
}
