/**
 * The signature and claims check of an OAuth access token, with aws-jwt-verify (spec "OAuth 2.1 flow" step 7). The
 * API groups load it as a lazy chunk (lib/bundling/lazy-modules.ts): only a request that carries an access token
 * needs it, and an organization API key's request does not pay for it at init. So it exchanges no class whose
 * identity matters with its caller: a refusal is a returned reason, never a thrown error class, and an error of the
 * key lookup (a failed table read) propagates as the same object.
 */
import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import { JwtBaseError, KidNotFoundInJwksError } from 'aws-jwt-verify/error';
import type { JwksCache, JwkWithKid } from 'aws-jwt-verify/jwk';

/** The claims an access token of this service carries (RFC 9068 §2.2, plus `org_id` and the grant id `gid`). */
export interface AccessClaims {
  sub: string;
  org_id: string;
  client_id: string;
  scope: string;
  gid: string;
}

/**
 * A published key by `kid`, or undefined when none is published (shared/use-cases/signing-key-cache.ts).
 * @throws whatever the table read throws
 */
export type KeyLookup = (kid: string | undefined) => Promise<JwkWithKid | undefined>;

/** A custom check's refusal, told apart from the lookup's own errors. */
class ClaimRefused extends Error {}

const REQUIRED_CLAIMS = ['sub', 'org_id', 'client_id', 'scope', 'gid'] as const;

/**
 * An ES256 JWS signature is R || S, 64 octets (RFC 7518 §3.4): 86 base64url characters. Checked before anything else,
 * because Node's verifier throws on another length (`ERR_CRYPTO_OPERATION_FAILED`) where it should answer false, and
 * a junk signature then costs no key lookup.
 */
const ES256_SIGNATURE = /^[A-Za-z0-9_-]{86}$/;

/** The keys of `lookUp` as an aws-jwt-verify `JwksCache` (the JWKS URI is ignored: keys come from the table). */
function jwksOf(lookUp: KeyLookup, cached: (kid: string | undefined) => JwkWithKid | undefined): JwksCache {
  const kidOf = (header: { kid?: unknown }) => (typeof header.kid === 'string' ? header.kid : undefined);
  return {
    async getJwk(_uri, { header }) {
      const jwk = await lookUp(kidOf(header));
      if (!jwk) throw new KidNotFoundInJwksError('the token names no published signing key (kid)');
      return jwk;
    },
    getCachedJwk(_uri, { header }) {
      const jwk = cached(kidOf(header));
      if (!jwk) throw new KidNotFoundInJwksError('signing key not cached; use the async verify()');
      return jwk;
    },
    addJwks() {
      throw new Error('signing keys come from the table (shared/db/signing-keys.ts), not from cacheJwks');
    },
    async getJwks() {
      throw new Error('signing keys are looked up one kid at a time (shared/use-cases/signing-key-cache.ts)');
    },
  };
}

type Verifier = ReturnType<typeof JwtVerifier.create>;
const verifiers = new Map<string, Verifier>();

/**
 * Verifies signature (64 octets, then ES256 with the key `lookUp` returns for the header's `kid`; `alg: none`, an unpublished key,
 * another key or another algorithm refused), `typ` (`at+jwt`, RFC 9068 §2.1), `iss` (`issuer`), `aud` (one of
 * `audiences`), `exp`, and the presence of this service's claims.
 * @param lookUp the published key by `kid` (signing-key-cache.ts); with `cached`, kept in the verifier made for `issuer`
 *   on its first call, so one pair serves a container's life
 * @param cached the key already in the caller's cache, without a read (aws-jwt-verify's synchronous path)
 * @returns the claims, or the reason the token is refused
 * @throws whatever `lookUp` throws (a failed table read is a 5xx, not a 401)
 */
export async function checkAccessToken(
  token: string,
  issuer: string,
  audiences: string[],
  lookUp: KeyLookup,
  cached: (kid: string | undefined) => JwkWithKid | undefined,
): Promise<{ claims: AccessClaims } | { refused: string }> {
  if (!ES256_SIGNATURE.test(token.split('.')[2] ?? '')) return { refused: 'malformed signature (ES256 is 64 octets, RFC 7518 §3.4)' };
  let verifier = verifiers.get(issuer);
  if (!verifier) {
    verifier = JwtVerifier.create(
      {
        issuer,
        audience: audiences,
        jwksUri: `${issuer}/.well-known/jwks.json`,
        customJwtCheck: ({ header, payload }) => {
          if (header.typ !== 'at+jwt') throw new ClaimRefused('not an access token (typ)');
          for (const c of REQUIRED_CLAIMS) if (typeof payload[c] !== 'string') throw new ClaimRefused(`missing ${c}`);
        },
      },
      { jwksCache: jwksOf(lookUp, cached) },
    );
    verifiers.set(issuer, verifier);
  }
  try {
    return { claims: (await verifier.verify(token)) as unknown as AccessClaims };
  } catch (err) {
    if (err instanceof JwtBaseError || err instanceof ClaimRefused) return { refused: err.message };
    // Node's verifier on a signature it cannot read (the length check above should leave none).
    if ((err as { code?: unknown }).code === 'ERR_CRYPTO_OPERATION_FAILED') return { refused: 'unreadable signature' };
    throw err;
  }
}
