/**
 * AWS KMS signing key (ES256): the private key never leaves KMS. `Sign` (`ECDSA_SHA_256`, `MessageType: RAW`) returns
 * an ASN.1 DER `ECDSA-Sig-Value`, which is turned into the JWS form, r‖s as two 32-byte big-endian integers
 * (RFC 7518 §3.4). The public key (`GetPublicKey`, SPKI DER) is read once per cold start and published as a JWK whose
 * `kid` is its RFC 7638 thumbprint.
 */
import { createPublicKey } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { b64json, type Jwks, type TokenSigner } from '#ports/token-signer';

const kms = new KMSClient({});

/**
 * Converts a DER `ECDSA-Sig-Value` (SEQUENCE { r INTEGER, s INTEGER }) to JOSE's fixed-width r‖s.
 * @param size bytes per integer (32 for P-256)
 * @throws Error on a malformed signature
 */
export function derToJose(der: Uint8Array, size = 32): Buffer {
  const buf = Buffer.from(der);
  let i = 0;
  if (buf[i++] !== 0x30) throw new Error('ECDSA signature: not a DER SEQUENCE');
  let len = buf[i++];
  if (len & 0x80) i += len & 0x7f; // long-form length (never for P-256, but harmless)
  const int = () => {
    if (buf[i++] !== 0x02) throw new Error('ECDSA signature: expected INTEGER');
    len = buf[i++];
    let v = buf.subarray(i, i + len);
    i += len;
    while (v.length > size && v[0] === 0) v = v.subarray(1);
    if (v.length > size) throw new Error('ECDSA signature: integer too long');
    return Buffer.concat([Buffer.alloc(size - v.length), v]);
  };
  return Buffer.concat([int(), int()]);
}

/** @param keyId the KMS key's id, ARN or alias */
export async function kmsTokenSigner(keyId: string): Promise<TokenSigner> {
  const pub = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
  if (!pub.PublicKey) throw new Error('KMS GetPublicKey returned no key');
  const jwk = createPublicKey({ key: Buffer.from(pub.PublicKey), format: 'der', type: 'spki' }).export({ format: 'jwk' }) as JWK;
  const publicJwk = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } as JWK;
  const kid = await calculateJwkThumbprint(publicJwk);
  const jwks: Jwks = { keys: [{ kty: 'EC', crv: 'P-256', x: publicJwk.x!, y: publicJwk.y!, kid, alg: 'ES256', use: 'sig' }] };
  return {
    kid,
    async sign(payload, typ) {
      const input = `${b64json({ alg: 'ES256', kid, typ })}.${b64json(payload)}`;
      const out = await kms.send(new SignCommand({ KeyId: keyId, Message: Buffer.from(input, 'utf8'), MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }));
      if (!out.Signature) throw new Error('KMS Sign returned no signature');
      return `${input}.${derToJose(out.Signature).toString('base64url')}`;
    },
    publicJwks: async () => jwks,
  };
}
