/**
 * Local signing key: a P-256 key pair generated with jose (ES256), kept in memory, or persisted as a private JWK in
 * `file` when given (created on first use, mode 0600) so a restarted local runtime still accepts its tokens.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import type { Jwks, TokenSigner } from '#ports/token-signer';

/** @param file where to keep the private JWK; undefined keeps it in memory only */
export async function localTokenSigner(file?: string): Promise<TokenSigner> {
  let privateJwk: JWK;
  if (file && existsSync(file)) {
    privateJwk = JSON.parse(readFileSync(file, 'utf8')) as JWK;
  } else {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    privateJwk = await exportJWK(privateKey);
    if (file) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(privateJwk), { mode: 0o600 });
    }
  }
  const { kty, crv, x, y } = privateJwk;
  const publicJwk = { kty, crv, x, y } as JWK;
  const kid = await calculateJwkThumbprint(publicJwk);
  const key = await importJWK(privateJwk, 'ES256');
  const jwks: Jwks = { keys: [{ kty: 'EC', crv: 'P-256', x: publicJwk.x!, y: publicJwk.y!, kid, alg: 'ES256', use: 'sig' }] };
  return {
    kid,
    sign: (payload, typ) => new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid, typ }).sign(key),
    publicJwks: async () => jwks,
  };
}
