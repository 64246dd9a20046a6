/**
 * Webhook delivery across a process restart of the local runtime (same data directory, same table on the
 * shared DynamoDB Local). The in-memory queue is lost with the process; what survives is the table (outbox
 * events, delivery records), the queue's send journal and the stream checkpoint file. On start the runtime
 * re-enqueues the journaled deliveries still pending and the stream poller resumes after its checkpoint, so
 * no committed event is lost:
 *  - mid-burst: deliveries pending (attempts already made) when the process stops arrive after the restart;
 *  - before fan-out: events committed just before the stop, and while the workers were down (API only),
 *    are fanned out by the restarted stream poller.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '#lib/local/runtime';
import { startLocalApi } from '#lib/local/http-server';
import {
  apiClient,
  deliveryRecords,
  EventMaker,
  listAllAttempts,
  newDeal,
  newOrg,
  outboxEvents,
  startWebhookReceiver,
  subscribe,
  until,
  type WebhookReceiver,
} from '../support/webhook-receiver.ts';
import { useCleanups } from '../support/runtime-harness.ts';
import { workerDynamoEndpoint } from '../support/dynamo-endpoint.ts';

// 10 s apart: on a loaded machine no delivery may spend its 7 attempts (60 s) before the test stops the runtime
// mid-burst (at most 20 s after the burst; at 5 s apart a delivery once did, on a machine at load 12).
process.env.WEBHOOK_RETRY_SCHEDULE = '10,10,10,10,10,10';

const cleanups = useCleanups();

/** A restartable runtime: same data directory (stream checkpoint) and table each time. */
function restartable() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'whd-restart-'));
  const tableName = `whd-${randomUUID().slice(0, 8)}`;
  let current: LocalRuntime | undefined;
  cleanups.push(async () => {
    await current?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    tableName,
    checkpointFile: path.join(dataDir, `stream-checkpoint-${tableName}.json`),
    async start() {
      current = await startLocalRuntime({ dynamoEndpoint: workerDynamoEndpoint(), tableName, dataDir, port: 0 });
      return current;
    },
    async stop() {
      const rt = current;
      current = undefined;
      await rt?.stop();
    },
  };
}

async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver({ behaviour: 'fail' });
  cleanups.push(() => r.close());
  return r;
}

describe('webhook delivery across a runtime restart', () => {
  it('mid-burst: pending deliveries are re-enqueued from the send journal and all 30 events arrive', async () => {
    const proc = restartable();
    const rt1 = await proc.start();
    expect(rt1.requeued).toBe(0);
    const hook = await receiver(); // failing for now
    const api = apiClient(rt1.baseUrl);
    const org = await newOrg();
    // The breaker is off here: 30 straight failures would otherwise pause the subscription (threshold 20).
    const sub = await subscribe(api, org.keys.actions, `${hook.url}/hook`, { circuitBreakerEnabled: false });
    hook.setSecret(sub.secret);
    const maker = new EventMaker(api, org.keys, await newDeal(org));
    await maker.commit(29);
    const committed = await outboxEvents(org.orgId);
    expect(committed).toHaveLength(30);
    const wanted = committed.map((e) => e.eventId);

    // Stop mid-burst, once failed attempts have been made for a third of the events (soon, so no delivery
    // can have spent its 7 attempts, even on a loaded machine): some deliveries are pending with attempts
    // made, and fan-out may not have reached the last events yet.
    await until('failed attempts for 10 events', () => hook.attemptsById.size >= 10, 20_000, { detail: () => hook.stats });
    await proc.stop(); // the in-memory queue, with every message on it, is gone
    const pending = await deliveryRecords(org.orgId, sub.id);
    expect(pending.size).toBeGreaterThanOrEqual(10);
    for (const d of pending.values()) expect(d.status).toBe('pending');
    // A pending delivery's record keeps no attempt count (shared/db/webhook-deliveries.ts): the receiver's does.
    const attempted = [...pending.keys()].filter((id) => (hook.attemptsById.get(id) ?? 0) >= 1);
    expect(attempted.length).toBeGreaterThanOrEqual(10);
    const attemptsBefore = hook.stats.requests;
    expect(hook.received.size).toBe(0);

    hook.behaviour = 'ok';
    const rt2 = await proc.start();
    expect(rt2.requeued).toBeGreaterThan(0);
    expect(rt2.requeued).toBe(pending.size);
    api.baseUrl = rt2.baseUrl;
    await until('all 30 events after the restart', () => wanted.every((id) => hook.received.has(id)), 20_000, { detail: () => ({ ...hook.stats, received: hook.received.size }) });

    expect(hook.received.size).toBe(30);
    expect(hook.badSignatures).toEqual([]);
    for (const e of committed) expect(hook.received.get(e.eventId)!.body).toEqual(e);
    await until('every delivery succeeded', async () => [...(await deliveryRecords(org.orgId, sub.id)).values()].every((d) => d.status === 'succeeded'), 5_000);
    // Attempt numbers continue across the restart: a success comes after the failures before the stop.
    const records = await deliveryRecords(org.orgId, sub.id);
    const attempts = await listAllAttempts(api, org.keys.read, sub.id);
    expect(attempts).toHaveLength(hook.stats.requests);
    expect(hook.stats.requests - attemptsBefore).toBe(30 + hook.stats.duplicates);
    for (const id of wanted) {
      const mine = attempts.filter((a) => a.eventId === id).sort((a, b) => a.attempt - b.attempt);
      expect(mine.at(-1)).toMatchObject({ ok: true, statusCode: 200, outcome: 'succeeded' });
      expect(mine.map((a) => a.attempt)).toEqual(mine.map((_, i) => i + 1));
      expect(records.get(id)!.attemptCount).toBe(mine.length);
      if (attempted.includes(id)) expect(mine.at(-1).attempt).toBeGreaterThan(1);
    }
  }, 120_000); // two runtime starts and three bounded waits (45 s); a loaded CI machine needs the room

  it('before fan-out: events committed just before the stop and while the workers were down are fanned out after the restart', async () => {
    const proc = restartable();
    const rt1 = await proc.start();
    const hook = await receiver();
    hook.behaviour = 'ok';
    const api = apiClient(rt1.baseUrl);
    const org = await newOrg();
    const sub = await subscribe(api, org.keys.actions, `${hook.url}/hook`);
    hook.setSecret(sub.secret);
    const maker = new EventMaker(api, org.keys, await newDeal(org));
    const [created] = await outboxEvents(org.orgId);
    await until('transaction.created delivered before the stop', () => hook.received.has(created.eventId), 10_000);
    await until('a stream checkpoint on disk', () => existsSync(proc.checkpointFile), 5_000);

    // A burst, then an immediate stop: some of it may or may not have been fanned out.
    await maker.commit(5);
    await proc.stop();
    const checkpoint = JSON.parse(readFileSync(proc.checkpointFile, 'utf8'));
    expect(Object.values(checkpoint.shards).some((s: any) => s.sequenceNumber)).toBe(true);

    // The API keeps committing while the stream and queue workers are down: these cannot have been fanned out.
    const apiOnly = await startLocalApi({ port: 0 });
    api.baseUrl = apiOnly.baseUrl;
    const beforeDown = new Set((await outboxEvents(org.orgId)).map((e) => e.eventId));
    try {
      await maker.commit(10);
    } finally {
      await apiOnly.close();
    }
    const whileDown = (await outboxEvents(org.orgId)).map((e) => e.eventId).filter((id) => !beforeDown.has(id));
    expect(whileDown).toHaveLength(10);
    const records = await deliveryRecords(org.orgId, sub.id);
    for (const id of whileDown) expect(records.has(id)).toBe(false);

    const rt2 = await proc.start();
    api.baseUrl = rt2.baseUrl;
    const committed = await outboxEvents(org.orgId);
    expect(committed).toHaveLength(16);
    await until('all 16 events after the restart', () => committed.every((e) => hook.received.has(e.eventId)), 15_000, { detail: () => ({ ...hook.stats, received: hook.received.size, requeued: rt2.requeued }) });
    expect(hook.received.size).toBe(16);
    expect(hook.badSignatures).toEqual([]);
    for (const e of committed) expect(hook.received.get(e.eventId)!.body).toEqual(e);
    await until('every delivery succeeded', async () => {
      const d = await deliveryRecords(org.orgId, sub.id);
      return d.size === 16 && [...d.values()].every((r) => r.status === 'succeeded');
    }, 5_000);
  }, 45_000);
});
