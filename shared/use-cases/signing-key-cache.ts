/**
 * The access-token verifier's source of public keys: the keys the issuer published in the table
 * (shared/db/signing-keys.ts), looked up by the token header's `kid` and cached per container. The verifier
 * (shared/use-cases/access-token-signature.ts, aws-jwt-verify) checks everything else (alg, the key's
 * `use`/`alg`/`kty`, the signature, claims). This module stays in the main bundle, where its cache lives as long as
 * the container; the verifier is a lazy chunk.
 *
 * - A `kid` that is not an RFC 7638 SHA-256 thumbprint (43 base64url characters) is refused without a read.
 * - A found key is kept for the container's life: its `kid` is its thumbprint, so it can never name another key. A
 *   new `kid` (a new signing key) is read once, on the first token that carries it.
 * - An unknown `kid` is refused and remembered for {@link UNKNOWN_KID_RETRY_MS}, so repeating one forged `kid` costs
 *   no more reads; at most {@link UNKNOWN_KIDS_KEPT} are remembered (the oldest go first), so distinct forged kids
 *   cannot grow memory. Each distinct forged `kid` costs one strongly consistent `GetItem` (1 read unit): less than
 *   an unknown API key, whose authentication is a conditional `UpdateItem`, and bounded by API Gateway's throttle.
 *   The issuer publishes a key before it signs with it, so a real token's `kid` is never unknown.
 * - Concurrent lookups of one `kid` share one read (the local runtime serves requests concurrently).
 * Entries are per table (`TABLE_NAME`): the table is what vouches for a key.
 */
import type { JwkWithKid } from 'aws-jwt-verify/jwk';
import { tableName } from '#db/client';
import { getSigningKey } from '#db/signing-keys';

/** How long an unknown `kid` is refused without another read (ms). */
export const UNKNOWN_KID_RETRY_MS = 60_000;
/** How many unknown kids are remembered at most. */
export const UNKNOWN_KIDS_KEPT = 1_000;

const THUMBPRINT = /^[A-Za-z0-9_-]{43}$/;

const known = new Map<string, JwkWithKid>();
/** table|kid → epoch ms until which it is refused without a read. */
const unknown = new Map<string, number>();
const reading = new Map<string, Promise<JwkWithKid | undefined>>();

async function lookUp(kid: string): Promise<JwkWithKid | undefined> {
  const entry = `${tableName()}|${kid}`;
  const hit = known.get(entry);
  if (hit) return hit;
  if ((unknown.get(entry) ?? 0) > Date.now()) return undefined;
  let pending = reading.get(entry);
  if (!pending) {
    pending = getSigningKey(kid)
      .then((jwk) => {
        if (jwk) {
          known.set(entry, jwk);
          unknown.delete(entry);
          return jwk;
        }
        unknown.delete(entry); // re-inserted last, so the map's order is the eviction order
        unknown.set(entry, Date.now() + UNKNOWN_KID_RETRY_MS);
        if (unknown.size > UNKNOWN_KIDS_KEPT) unknown.delete(unknown.keys().next().value!);
        return undefined;
      })
      .finally(() => reading.delete(entry));
    reading.set(entry, pending);
  }
  return pending;
}

const wellFormed = (kid: string | undefined): kid is string => typeof kid === 'string' && THUMBPRINT.test(kid);

/**
 * The published key a token's `kid` names, or undefined for a malformed `kid` (no read) or an unknown one.
 * @throws whatever the table read throws (DynamoDB errors propagate)
 */
export const publishedSigningKey = async (kid: string | undefined): Promise<JwkWithKid | undefined> => (wellFormed(kid) ? lookUp(kid) : undefined);

/** The key `kid` names if this container has already read it (no read). */
export const cachedSigningKey = (kid: string | undefined): JwkWithKid | undefined => (wellFormed(kid) ? known.get(`${tableName()}|${kid}`) : undefined);

/** Forgets every cached key and unknown `kid` (tests). */
export function resetSigningKeyCache(): void {
  known.clear();
  unknown.clear();
  reading.clear();
}
