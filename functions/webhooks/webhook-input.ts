/**
 * Checks of a subscription body beyond its schema: every event type is in the catalog (or `*`), and the URL
 * is safe (`shared/events/url-safety.ts`). Failures are 422 with `fields`.
 */
import { EVENT_TYPES } from '#events/catalog';
import { assertSafeWebhookUrl, UnsafeWebhookUrl } from '#events/url-safety';
import { ValidationError } from '#http/errors';

/** @throws ValidationError naming `events[i]` and/or `url` */
export async function assertValidSubscription(body: { url: string; events: string[] }): Promise<void> {
  const fields: Record<string, string> = {};
  body.events.forEach((e, i) => {
    if (e !== '*' && !(e in EVENT_TYPES)) fields[`events[${i}]`] = `is not an event type; see GET /api/v1/webhook-events (or use *)`;
  });
  try {
    await assertSafeWebhookUrl(body.url);
  } catch (err) {
    if (!(err instanceof UnsafeWebhookUrl)) throw err;
    fields.url = err.message;
  }
  if (Object.keys(fields).length) throw new ValidationError(fields);
}
