/**
 * The published public half of the OAuth access-token signing key, so the API's functions verify tokens with one
 * table read instead of the KMS client (issue 24).
 *
 * - Item: `PK = OAUTHKEY#<kid>`, `SK = KEY`, `entity = OAuthSigningKey`, `jwk` = the public JWK (`kty: EC`,
 *   `crv: P-256`, `x`, `y`, `kid`, `alg: ES256`, `use: sig`; RFC 7517 §4). `kid` is the key's RFC 7638 SHA-256
 *   thumbprint, so a `kid` names exactly one key and an item never changes: the issuer writes it (an unconditional
 *   `PutItem` of the same bytes, idempotent; DynamoDB Streams records nothing for a put that changes nothing) before
 *   it signs the first token with that key. Not organization-owned: no GSI, no `ttl`, untouched by a workspace purge.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { oauthPk } from '#db/keys';
import type { Jwks } from '#ports/token-signer';

/** One public ES256 signing key as a JWK. */
export type SigningJwk = Jwks['keys'][number];

const SK = 'KEY';

/**
 * RFC 7638 §3: base64url(SHA-256) of the JWK's required members in lexicographic order without whitespace (for EC:
 * `crv`, `kty`, `x`, `y`; §3.2). 43 characters.
 */
export const jwkThumbprint = (jwk: Pick<SigningJwk, 'crv' | 'kty' | 'x' | 'y'>): string =>
  createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }), 'utf8').digest('base64url');

/** Publishes `jwk` under its `kid` (idempotent: the same key always writes the same item). */
export async function publishSigningKey(jwk: SigningJwk): Promise<void> {
  const { kty, crv, x, y, kid, alg, use } = jwk;
  await db().send(new PutCommand({ TableName: tableName(), Item: { PK: oauthPk.signingKey(kid), SK, entity: 'OAuthSigningKey', jwk: { kty, crv, x, y, kid, alg, use } } }));
}

/**
 * The published key named `kid` (a strongly consistent `GetItem`, so a key published a moment ago is found), or
 * undefined when none is, or when the stored JWK is not a P-256 ES256 signing key whose thumbprint is `kid`.
 */
export async function getSigningKey(kid: string): Promise<SigningJwk | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: oauthPk.signingKey(kid), SK }, ConsistentRead: true }));
  const jwk = out.Item?.jwk as Partial<SigningJwk> | undefined;
  if (!jwk || jwk.kty !== 'EC' || jwk.crv !== 'P-256' || jwk.alg !== 'ES256' || jwk.use !== 'sig' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') return undefined;
  if (jwk.kid !== kid || jwkThumbprint(jwk as SigningJwk) !== kid) return undefined;
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid, alg: 'ES256', use: 'sig' };
}
