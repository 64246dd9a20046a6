/**
 * The OAuth signing-key port: signs access tokens (JWS ES256, RFC 7518 §3.4) and publishes the public key as a JWKS
 * (RFC 7517). In AWS (`OAUTH_SIGNING_KEY_ID` set) the private key never leaves AWS KMS (an `ECC_NIST_P256`
 * `SIGN_VERIFY` key; shared/ports/token-signer/kms.ts); locally a P-256 key is generated once per process, or read
 * from `OAUTH_LOCAL_KEY_FILE` when set (so tokens survive a restart of `npm start`). Only adapters read the
 * environment. Only the OAuth function (the issuer) uses this port: it publishes the public key in the table before
 * signing (shared/use-cases/oauth.ts), and the API's functions verify with that (shared/use-cases/access-tokens.ts),
 * so they never load an adapter here, nor the KMS client.
 */
import { config } from '#ports/config';

/** A JWK Set with the public signing key(s) (`kty`, `crv`, `x`, `y`, `kid`, `alg: ES256`, `use: sig`). */
export interface Jwks {
  keys: { kty: string; crv: string; x: string; y: string; kid: string; alg: 'ES256'; use: 'sig' }[];
}

/** Signs compact JWS tokens with the service's key. */
export interface TokenSigner {
  /** The key id (`kid`) written into every token's header. */
  readonly kid: string;
  /**
   * Signs `payload` as a compact JWS with header `{ alg: 'ES256', kid, typ }`.
   * @param typ the JOSE `typ` (`at+jwt` for access tokens, RFC 9068 §2.1)
   */
  sign(payload: Record<string, unknown>, typ: string): Promise<string>;
  /** The public key set verifiers use. */
  publicJwks(): Promise<Jwks>;
}

let instance: Promise<TokenSigner> | undefined;

/** The signer of this environment (the adapter is loaded on first use). */
export function tokenSigner(): Promise<TokenSigner> {
  const keyId = config.oauthSigningKeyId;
  instance ??= keyId
    ? import('#ports/token-signer/kms').then((m) => m.kmsTokenSigner(keyId))
    : import('#ports/token-signer/local').then((m) => m.localTokenSigner(config.oauthLocalKeyFile));
  return instance;
}

/** Drops the cached signer (tests switching adapters). */
export function resetTokenSigner(): void {
  instance = undefined;
}

/** base64url of a JSON value (a JWS header or payload segment, RFC 7515 §7.1). */
export const b64json = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
