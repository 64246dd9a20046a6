/**
 * Turns a committed domain event into notifications (shared/domain/notifications.ts decides which and for whom):
 * one per recipient member, written idempotently (a replayed outbox record adds nothing), and pushed to each of the
 * member's registered devices only when newly written. A push that fails is logged and counted, never retried: the
 * notification itself is stored and listed (fan-out, shared/use-cases/fan-out.ts, reports the count).
 */
import { listUsers } from '#db/orgs';
import { listPushDevices, notificationOf, putNotification } from '#db/notifications';
import { notificationFor } from '#domain/notifications';
import type { EventEnvelope } from '#events/outbox';
import { pushSender } from '#ports/push';
import { logger } from '#observability/powertools';

/**
 * @returns how many notifications were newly stored, and how many pushes failed
 * @throws when the members cannot be read or a notification cannot be stored
 */
export async function notifyFromEvent(e: EventEnvelope): Promise<{ stored: number; failedPushes: number }> {
  const draft = notificationFor(e);
  if (!draft) return { stored: 0, failedPushes: 0 };
  const members = (await listUsers(e.organizationId)).map((u) => u.userId);
  const to = draft.to === 'all' ? members : draft.to.filter((u) => members.includes(u));
  const n = notificationOf(draft, e.eventId, e.data, e.timestamp);
  let stored = 0;
  let failedPushes = 0;
  for (const userId of to) {
    if (!(await putNotification(e.organizationId, userId, n))) continue;
    stored++;
    for (const d of await listPushDevices(e.organizationId, userId)) {
      try {
        await (await pushSender()).send({ deviceId: d.deviceId, platform: d.platform, pushToken: d.pushToken! }, { title: n.title, body: n.body, data: { notificationId: n.id, type: n.type, transactionId: n.transactionId } });
      } catch (err) {
        failedPushes++;
        logger.warn('push failed', { orgId: e.organizationId, eventId: e.eventId, deviceId: d.deviceId, error: err });
      }
    }
  }
  return { stored, failedPushes };
}
