/**
 * The KMS signing adapter (shared/ports/token-signer/kms.ts) against a mocked KMS that answers with a real P-256 key:
 * `GetPublicKey` returns its SPKI DER, `Sign` signs the exact message with it (DER signature, as KMS does). The token
 * must verify with jose against the published JWKS, and the adapter must ask KMS for ECDSA_SHA_256 over the raw
 * `header.payload` bytes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { mockClient } from 'aws-sdk-client-mock';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { derToJose, kmsTokenSigner } from '#ports/token-signer/kms';

const kms = mockClient(KMSClient);
afterEach(() => kms.reset());

describe('kmsTokenSigner', () => {
  it('signs ES256 through KMS Sign; the token verifies against the JWKS from GetPublicKey', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    kms.on(GetPublicKeyCommand).resolves({ PublicKey: new Uint8Array(publicKey.export({ format: 'der', type: 'spki' })), KeySpec: 'ECC_NIST_P256' });
    kms.on(SignCommand).callsFake((input: { Message: Uint8Array }) => ({ Signature: new Uint8Array(nodeSign('sha256', Buffer.from(input.Message), privateKey)), SigningAlgorithm: 'ECDSA_SHA_256' }));

    const signer = await kmsTokenSigner('arn:aws:kms:us-east-1:111122223333:key/abc');
    const token = await signer.sign({ sub: 'u1', aud: 'https://api.example', iss: 'https://api.example', exp: Math.floor(Date.now() / 1000) + 60 }, 'at+jwt');
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(await signer.publicJwks()), { issuer: 'https://api.example', audience: 'https://api.example', typ: 'at+jwt' });
    expect(payload.sub).toBe('u1');
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: signer.kid, typ: 'at+jwt' });

    const call = kms.commandCalls(SignCommand)[0].args[0].input;
    expect(call).toMatchObject({ KeyId: 'arn:aws:kms:us-east-1:111122223333:key/abc', MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' });
    expect(Buffer.from(call.Message!).toString('utf8')).toBe(token.split('.').slice(0, 2).join('.'));
    expect(kms.commandCalls(GetPublicKeyCommand)).toHaveLength(1);
  });

  it('derToJose pads short integers and strips DER sign bytes to 32 bytes each', () => {
    // r = 0x01 (short), s = 0x00 0x80... (33 bytes with a leading zero)
    const s = Buffer.concat([Buffer.from([0x00, 0x80]), Buffer.alloc(31, 1)]);
    const der = Buffer.concat([Buffer.from([0x30, 2 + 1 + 2 + s.length, 0x02, 0x01, 0x01, 0x02, s.length]), s]);
    const jose = derToJose(der);
    expect(jose).toHaveLength(64);
    expect(jose.subarray(0, 32)).toEqual(Buffer.concat([Buffer.alloc(31), Buffer.from([1])]));
    expect(jose.subarray(32)).toEqual(s.subarray(1));
    expect(() => derToJose(Buffer.from([0x31, 0x00]))).toThrow(/SEQUENCE/);
  });
});
