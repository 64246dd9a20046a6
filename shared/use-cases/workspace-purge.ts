/**
 * The purge of a workspace whose deletion grace period ended (functions/workspace-purge): deletes every item of the
 * organization in the table (GSI3 by `orgId`), its S3 objects (documents, OCR files, export archives, stored
 * reports), its schedules (scheduled messages, reminders, a building export), webhook subscriptions and API keys.
 *
 * - Webhook subscriptions go first: fan-out finds no subscription for any later event, and a queued delivery
 *   re-reads its subscription before POSTing and drops itself, so nothing reaches the organization's endpoints
 *   once the purge started. Keys go next, so nobody reads a half-deleted workspace.
 * - Resumable: every step deletes whatever of its kind is still there, so a retried invocation (the scheduler
 *   retries a failed one) simply continues; finished steps are recorded on the organization item, which is
 *   deleted last (its absence means the purge is complete).
 * - Touches no other organization: every key it deletes comes from the organization's own GSI3 partition, its own
 *   S3 prefixes, or its own subscriptions and keys.
 */
import { getDeletionState, markPurging, recordPurgeStep } from '#db/workspace-deletion';
import { deleteWebhook, listWebhooks } from '#db/webhooks';
import { listApiKeys } from '#db/api-keys';
import { orgItemKey } from '#db/orgs';
import { deleteItems, getItems, orgItemKeysPage, type ItemKey } from '#db/org-items';
import { REMINDER_SK, toReminder } from '#db/reminders';
import { scheduledMessageIdOfKey } from '#db/scheduled-messages';
import { getLatestExport } from '#db/workspace-exports';
import { deleteKeys, listKeys, orgObjectPrefixes } from '#ports/blob-store';
import { scheduler } from '#ports/scheduler';
import { NotFound } from '#domain/errors';
import { logger } from '#observability/powertools';
import { scheduleNameOf } from '#use-cases/messaging/scheduled-email';
import { exportScheduleNameOf } from '#use-cases/workspace-export';
import { reminderScheduleName } from '#use-cases/reminder-schedule';

/** What a purge invocation did. Counts are of deletes sent by this invocation. */
export interface PurgeOutcome {
  outcome: 'purged' | 'skipped' | 'gone';
  /** Why it was skipped (cancelled, superseded, not due yet). */
  reason?: string;
  items: number;
  objects: number;
  schedules: number;
}

/** The purge steps, in order. */
export const PURGE_STEPS = ['webhooks', 'keys', 'schedules', 'objects', 'items', 'organization'] as const;

/**
 * Runs (or resumes) the purge of deletion `deletionId` of `orgId`.
 * @param now the invocation time; a deletion not yet due is skipped
 * @returns `gone` when the organization no longer exists (a finished purge), `skipped` for a deletion that was
 *   cancelled or replaced, else `purged` with counts
 * @throws Error for a transient failure (the scheduler retries; the retry resumes)
 */
export async function purgeWorkspace(orgId: string, deletionId: string, now: Date): Promise<PurgeOutcome> {
  const zero = { items: 0, objects: 0, schedules: 0 };
  const first = await orgItemKeysPage(orgId, undefined, 1);
  const d = await getDeletionState(orgId, true);
  if (!d) return { outcome: first.keys.length ? 'skipped' : 'gone', reason: first.keys.length ? 'no deletion scheduled' : undefined, ...zero };
  if (d.deletionId !== deletionId) return { outcome: 'skipped', reason: 'another deletion is recorded', ...zero };
  if (d.state === 'scheduled' && Date.parse(d.dueAt) > now.getTime()) return { outcome: 'skipped', reason: `not due until ${d.dueAt}`, ...zero };
  if (!(await markPurging(orgId, deletionId, now))) return { outcome: 'skipped', reason: 'deletion cancelled meanwhile', ...zero };
  logger.info('purge started', { resumedAfter: d.purgeSteps ?? [] });
  const counts = { ...zero };
  const step = async (name: (typeof PURGE_STEPS)[number], run: () => Promise<void>) => {
    await run();
    await recordPurgeStep(orgId, deletionId, name).catch((err: unknown) => {
      if (name !== 'organization') throw err;
    });
  };

  await step('webhooks', async () => {
    for (const w of await listWebhooks(orgId)) await deleteWebhook(orgId, w.id).catch((err: unknown) => ignoreNotFound(err));
  });
  await step('keys', async () => {
    counts.items += await deleteItems((await listApiKeys(orgId)).map((k) => ({ PK: k.PK, SK: k.SK })));
  });
  await step('schedules', async () => {
    const names: string[] = [];
    const latest = await getLatestExport(orgId, true);
    if (latest?.state === 'building') names.push(exportScheduleNameOf(latest.exportId));
    const reminderKeys: ItemKey[] = [];
    await forEachItemPage(orgId, async (keys) => {
      for (const k of keys) {
        const id = scheduledMessageIdOfKey(k);
        if (id) names.push(scheduleNameOf(id));
        if (k.SK.startsWith(REMINDER_SK)) reminderKeys.push(k);
      }
    });
    names.push(...(await pendingReminderSchedules(reminderKeys)));
    const sched = await scheduler();
    for (const name of names) if (await sched.delete(name)) counts.schedules++;
  });
  await step('objects', async () => {
    for (const prefix of orgObjectPrefixes(orgId)) {
      const keys = await listKeys(prefix);
      await deleteKeys(keys);
      counts.objects += keys.length;
    }
  });
  await step('items', async () => {
    const org = orgItemKey(orgId);
    // Deleting while paging would skip items; page from the start until only the organization item is left.
    for (;;) {
      const { keys } = await orgItemKeysPage(orgId, undefined, 1000);
      const rest = keys.filter((k) => !(k.PK === org.PK && k.SK === org.SK));
      if (!rest.length) break;
      counts.items += await deleteItems(rest);
    }
  });
  await step('organization', async () => {
    counts.items += await deleteItems([orgItemKey(orgId)]);
  });
  logger.info('purge finished', counts);
  return { outcome: 'purged', ...counts };
}

/**
 * The schedule names of the reminders that still have one: `pending` (waiting for its time) and `sending` (its run
 * may be retried), each under its current generation (`rem-<id>-<generation>`); older generations were cancelled when
 * the reminder moved, and a `sent`, `failed` or `expired` reminder's schedule has fired or was cancelled.
 */
async function pendingReminderSchedules(keys: readonly ItemKey[]): Promise<string[]> {
  const reminders = (await getItems(keys)).map(toReminder);
  return reminders.filter((r) => r.status === 'pending' || r.status === 'sending').map((r) => reminderScheduleName(r.id, r.generation));
}

/** Calls `visit` with each page of the organization's item keys. */
async function forEachItemPage(orgId: string, visit: (keys: ItemKey[]) => Promise<void>): Promise<void> {
  let next: Record<string, unknown> | undefined;
  do {
    const page = await orgItemKeysPage(orgId, next);
    await visit(page.keys);
    next = page.next;
  } while (next);
}

function ignoreNotFound(err: unknown): void {
  if (!(err instanceof NotFound)) throw err;
}
