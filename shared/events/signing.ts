/**
 * Webhook signatures (spec "Delivery"): `X-Webhook-Signature: sha256=<hex>`, an HMAC-SHA256 over the raw
 * request body bytes keyed with the subscription's signing secret. Receivers verify before parsing and
 * compare in constant time; `verifyWebhookSignature` is that check (also used by our own tests).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + 32 random bytes, base64url. */
export const newSigningSecret = () => SECRET_PREFIX + randomBytes(32).toString('base64url');

/** What later reads show of a secret: its first 10 characters and an ellipsis. */
export const maskSecret = (secret: string) => `${secret.slice(0, 10)}…`;

/** `sha256=<hex>` of `body` under `secret`. @param body the exact bytes sent */
export function signWebhookBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Constant-time check of a received `X-Webhook-Signature` header against the raw body. */
export function verifyWebhookSignature(secret: string, body: string | Buffer, header: string | undefined | null): boolean {
  if (!header) return false;
  const expected = Buffer.from(signWebhookBody(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
