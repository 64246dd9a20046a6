/** Webhook signatures (spec "Delivery"): `sha256=<hex>` HMAC over the raw body, constant-time verify, masked secrets. */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { maskSecret, newSigningSecret, SECRET_PREFIX, signWebhookBody, verifyWebhookSignature } from '#events/signing';

const SECRET = 'whsec_test';
const BODY = '{"a":1}';
const expected = `sha256=${createHmac('sha256', SECRET).update(BODY, 'utf8').digest('hex')}`;

describe('signWebhookBody', () => {
  it('is sha256=<hex> of the HMAC-SHA256 of the body under the secret', () => {
    expect(signWebhookBody(SECRET, BODY)).toBe(expected);
    expect(signWebhookBody(SECRET, BODY)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('signs a Buffer and the same string identically (raw bytes)', () => {
    const body = '{"name":"Zoë — 5 ½ acres"}';
    expect(signWebhookBody(SECRET, Buffer.from(body, 'utf8'))).toBe(signWebhookBody(SECRET, body));
  });

  it('differs for a different secret', () => {
    expect(signWebhookBody('whsec_other', BODY)).not.toBe(expected);
  });
});

describe('verifyWebhookSignature', () => {
  it('accepts the right header for the exact body', () => {
    expect(verifyWebhookSignature(SECRET, BODY, expected)).toBe(true);
    expect(verifyWebhookSignature(SECRET, Buffer.from(BODY), expected)).toBe(true);
  });

  it('rejects a body with one changed byte', () => {
    expect(verifyWebhookSignature(SECRET, '{"a":2}', expected)).toBe(false);
    expect(verifyWebhookSignature(SECRET, '{"a":1} ', expected)).toBe(false);
  });

  it('rejects a wrong secret', () => {
    expect(verifyWebhookSignature('whsec_tesT', BODY, expected)).toBe(false);
  });

  it('rejects a truncated, bare-hex, or tampered header', () => {
    expect(verifyWebhookSignature(SECRET, BODY, expected.slice(0, -1))).toBe(false);
    expect(verifyWebhookSignature(SECRET, BODY, expected.slice('sha256='.length))).toBe(false);
    const flipped = expected.slice(0, -1) + (expected.endsWith('0') ? '1' : '0');
    expect(verifyWebhookSignature(SECRET, BODY, flipped)).toBe(false);
  });

  it('rejects a missing or empty header', () => {
    expect(verifyWebhookSignature(SECRET, BODY, undefined)).toBe(false);
    expect(verifyWebhookSignature(SECRET, BODY, null)).toBe(false);
    expect(verifyWebhookSignature(SECRET, BODY, '')).toBe(false);
  });
});

describe('secrets', () => {
  it('newSigningSecret is whsec_ plus 32 random bytes base64url, different each time', () => {
    const a = newSigningSecret();
    const b = newSigningSecret();
    expect(a.startsWith(SECRET_PREFIX)).toBe(true);
    expect(a.slice(SECRET_PREFIX.length)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('maskSecret shows only a 10-character prefix', () => {
    const secret = newSigningSecret();
    const masked = maskSecret(secret);
    expect(masked).toBe(`${secret.slice(0, 10)}…`);
    expect(masked).not.toContain(secret.slice(10));
    expect(masked.length).toBeLessThan(secret.length);
  });
});
