/**
 * KMS stand-in for the OAuth signing key: `GetPublicKey` and `Sign` (`ECDSA_SHA_256`, `RAW`) with a P-256 key
 * made per key id at first use and kept for the run, so every cold start of the OAuth function signs with, and
 * publishes, the same key (the API functions verify with the published item, not with KMS). Answers
 * in the KMS JSON protocol (`TrentService.*`); other operations answer `UnsupportedOperationException`.
 */
import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { jsonError, jsonReply, type Backend } from '../aws-gateway.ts';

/** @param keyArnOf a key id, alias or ARN → the key's ARN (one key per ARN) */
export function kmsEmulator(keyArnOf: (keyId: string) => string): Backend {
  const keys = new Map<string, { privateKey: KeyObject; publicKey: KeyObject }>();
  const keyOf = (id: string) => {
    const arn = keyArnOf(id);
    let pair = keys.get(arn);
    if (!pair) keys.set(arn, (pair = generateKeyPairSync('ec', { namedCurve: 'P-256' })));
    return { arn, ...pair };
  };
  return async (req) => {
    const body = JSON.parse(req.body.toString('utf8') || '{}') as { KeyId: string; Message?: string; SigningAlgorithm?: string };
    const key = keyOf(body.KeyId);
    if (req.target === 'GetPublicKey') {
      return jsonReply({ KeyId: key.arn, KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY', SigningAlgorithms: ['ECDSA_SHA_256'], PublicKey: key.publicKey.export({ format: 'der', type: 'spki' }).toString('base64') });
    }
    if (req.target === 'Sign') {
      if (body.SigningAlgorithm !== 'ECDSA_SHA_256') return jsonError('InvalidKeyUsageException', `unsupported algorithm ${body.SigningAlgorithm}`);
      const signer = createSign('SHA256');
      signer.update(Buffer.from(body.Message ?? '', 'base64'));
      return jsonReply({ KeyId: key.arn, SigningAlgorithm: 'ECDSA_SHA_256', Signature: signer.sign(key.privateKey).toString('base64') });
    }
    return jsonError('UnsupportedOperationException', `KMS ${req.target} is not emulated`);
  };
}
