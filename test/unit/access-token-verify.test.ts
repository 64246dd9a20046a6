/**
 * The API's access-token check without KMS (shared/use-cases/access-tokens.ts, signing-key-cache.ts): tokens signed
 * by the real local signer, verified against the key item `publishSigningKey` wrote (a mocked document client hands
 * back the written item). Asserts the reads the cache makes: one per new `kid`, none for a repeated unknown `kid`
 * within its retry time, none for a malformed one.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { resetDbClient } from '#db/client';
import { jwkThumbprint, publishSigningKey } from '#db/signing-keys';
import { localTokenSigner } from '#ports/token-signer/local';
import type { TokenSigner } from '#ports/token-signer';
import { TokenRejected, verifiedClaims } from '#use-cases/access-tokens';
import { resetSigningKeyCache, UNKNOWN_KID_RETRY_MS } from '#use-cases/signing-key-cache';

const ddb = mockClient(DynamoDBDocumentClient);
const ISSUER = 'https://tcs.example';
/** The table as the mock keeps it: PK → item. */
let table: Map<string, Record<string, unknown>>;

const claims = () => {
  const iat = Math.floor(Date.now() / 1000);
  return { iss: ISSUER, sub: 'user-1', aud: `${ISSUER}/mcp`, exp: iat + 600, iat, jti: randomUUID(), client_id: 'client-1', scope: 'read', org_id: 'org-1', gid: randomUUID() };
};
const reads = () => ddb.commandCalls(GetCommand).length;
/** A signer whose key is published as the issuer publishes it. */
async function publishedSigner(): Promise<TokenSigner> {
  const signer = await localTokenSigner();
  await publishSigningKey((await signer.publicJwks()).keys[0]!);
  return signer;
}

beforeEach(() => {
  vi.stubEnv('TABLE_NAME', 'unit-table');
  resetDbClient();
  resetSigningKeyCache();
  table = new Map();
  ddb.on(PutCommand).callsFake(async (input: { Item: Record<string, unknown> }) => void table.set(String(input.Item.PK), structuredClone(input.Item)));
  ddb.on(GetCommand).callsFake(async (input: { Key: { PK: string; SK: string } }) => {
    const item = table.get(input.Key.PK);
    return { Item: item?.SK === input.Key.SK ? item : undefined };
  });
});
afterEach(() => {
  ddb.reset();
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('publishSigningKey', () => {
  it('writes the public JWK (no private member) under OAUTHKEY#<kid>, kid being its RFC 7638 thumbprint', async () => {
    const signer = await publishedSigner();
    const { Item } = ddb.commandCalls(PutCommand)[0]!.args[0].input as { Item: Record<string, any> };
    expect(Item).toEqual({ PK: `OAUTHKEY#${signer.kid}`, SK: 'KEY', entity: 'OAuthSigningKey', jwk: { kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String), kid: signer.kid, alg: 'ES256', use: 'sig' } });
    expect(jwkThumbprint(Item.jwk)).toBe(signer.kid);
  });
});

describe('verifiedClaims with published keys', () => {
  it('verifies a token of a published key with one consistent read, then from the cache', async () => {
    const signer = await publishedSigner();
    const c = claims();
    await expect(verifiedClaims(await signer.sign(c, 'at+jwt'), ISSUER)).resolves.toMatchObject({ sub: 'user-1', org_id: 'org-1', gid: c.gid });
    await expect(verifiedClaims(await signer.sign(claims(), 'at+jwt'), ISSUER)).resolves.toMatchObject({ sub: 'user-1' });
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([{ TableName: 'unit-table', Key: { PK: `OAUTHKEY#${signer.kid}`, SK: 'KEY' }, ConsistentRead: true }]);
  });

  it('reads a new kid (a rotated key) once more, and keeps accepting the old one', async () => {
    const first = await publishedSigner();
    await verifiedClaims(await first.sign(claims(), 'at+jwt'), ISSUER);
    const second = await publishedSigner();
    await verifiedClaims(await second.sign(claims(), 'at+jwt'), ISSUER);
    await verifiedClaims(await first.sign(claims(), 'at+jwt'), ISSUER);
    await verifiedClaims(await second.sign(claims(), 'at+jwt'), ISSUER);
    expect(reads()).toBe(2);
  });

  it('refuses an unpublished kid and reads it again only after the retry time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const unpublished = await localTokenSigner();
    const token = () => unpublished.sign(claims(), 'at+jwt');
    await expect(verifiedClaims(await token(), ISSUER)).rejects.toBeInstanceOf(TokenRejected);
    await expect(verifiedClaims(await token(), ISSUER)).rejects.toBeInstanceOf(TokenRejected);
    expect(reads()).toBe(1);
    vi.setSystemTime(Date.now() + UNKNOWN_KID_RETRY_MS + 1);
    await publishSigningKey((await unpublished.publicJwks()).keys[0]!);
    await expect(verifiedClaims(await token(), ISSUER)).resolves.toMatchObject({ sub: 'user-1' });
    expect(reads()).toBe(2);
  });

  it('refuses a kid that is not a thumbprint, or no kid, without reading', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    for (const kid of ['../etc', 'x'.repeat(44), undefined]) {
      const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', ...(kid ? { kid } : {}) }).sign(privateKey);
      await expect(verifiedClaims(token, ISSUER), String(kid)).rejects.toBeInstanceOf(TokenRejected);
    }
    expect(reads()).toBe(0);
  });

  it('refuses another key signing under a published kid, a key item whose JWK does not hash to its kid, and a wrong typ', async () => {
    const signer = await publishedSigner();
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'at+jwt' }).sign(privateKey);
    await expect(verifiedClaims(forged, ISSUER)).rejects.toBeInstanceOf(TokenRejected);
    await expect(verifiedClaims(await signer.sign(claims(), 'JWT'), ISSUER)).rejects.toBeInstanceOf(TokenRejected);

    // An item under a kid that is not its key's thumbprint (written by anything but publishSigningKey): the key
    // would verify the token's signature, so only the thumbprint check refuses it.
    const { privateKey: otherKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const { x, y } = await exportJWK(publicKey);
    const stolenKid = (await localTokenSigner()).kid;
    table.set(`OAUTHKEY#${stolenKid}`, { PK: `OAUTHKEY#${stolenKid}`, SK: 'KEY', jwk: { kty: 'EC', crv: 'P-256', x, y, kid: stolenKid, alg: 'ES256', use: 'sig' } });
    const mislabeled = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', kid: stolenKid, typ: 'at+jwt' }).sign(otherKey);
    await expect(verifiedClaims(mislabeled, ISSUER)).rejects.toBeInstanceOf(TokenRejected);
  });

  it('refuses a token whose signature is cut, padded, emptied or not base64url (never a 5xx)', async () => {
    const signer = await publishedSigner();
    const [header, payload, signature] = (await signer.sign(claims(), 'at+jwt')).split('.');
    for (const bad of ['AAAA', '', signature!.slice(0, 20), `${signature}AAAA`, '***']) {
      await expect(verifiedClaims(`${header}.${payload}.${bad}`, ISSUER), JSON.stringify(bad)).rejects.toBeInstanceOf(TokenRejected);
    }
  });

  it('lets a failed read through as itself (a 5xx), not as a rejected token', async () => {
    const signer = await localTokenSigner();
    ddb.on(GetCommand).rejects(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }));
    await expect(verifiedClaims(await signer.sign(claims(), 'at+jwt'), ISSUER)).rejects.toBeInstanceOf(ProvisionedThroughputExceededException);
  });
});
