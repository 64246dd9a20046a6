/**
 * Checks of a subscription body beyond its schema: every event type is in the catalog (or `*`), the URL is
 * safe (`shared/events/url-safety.ts`), and every custom header can be sent over HTTP, once. Failures are 422
 * with `fields`.
 *
 * Header names are RFC 9110 tokens, so `constructor` or `toString` are legal names and are kept; they are
 * compared case-insensitively (RFC 9110 §5.1), so two names differing only in case are refused. `__proto__`
 * never gets here (the request's generic check refuses that key), and every lookup below is an own-key one.
 */
import { EVENT_TYPES } from '#events/catalog';
import { assertSafeWebhookUrl, UnsafeWebhookUrl } from '#events/url-safety';
import { InvalidInput } from '#domain/errors';
import { dict } from '#domain/dict';

/** RFC 9110 §5.1 field-name token, and the value bytes Node's HTTP client will send (no CR, LF or NUL). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** @throws InvalidInput naming `events[i]`, `url` and/or `headers.<name>` */
export async function assertValidSubscription(body: { url: string; events: string[]; headers?: Record<string, string> | null }): Promise<void> {
  const fields = dict<string>();
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(body.headers ?? {})) {
    if (!HEADER_NAME.test(name)) fields[`headers.${name}`] = 'is not a valid HTTP header name';
    else if (!HEADER_VALUE.test(value)) fields[`headers.${name}`] = 'contains characters not allowed in an HTTP header value';
    else if (seen.has(name.toLowerCase())) fields[`headers.${name}`] = 'repeats a header name (names are case-insensitive)';
    seen.add(name.toLowerCase());
  }
  body.events.forEach((e, i) => {
    if (e !== '*' && !Object.hasOwn(EVENT_TYPES, e)) fields[`events[${i}]`] = `is not an event type; see GET /api/v1/webhook-events (or use *)`;
  });
  try {
    await assertSafeWebhookUrl(body.url);
  } catch (err) {
    if (!(err instanceof UnsafeWebhookUrl)) throw err;
    fields.url = err.message;
  }
  if (Object.keys(fields).length) throw new InvalidInput(fields);
}
