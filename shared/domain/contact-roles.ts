/**
 * Contact roles (spec "Contact": a contact is linked to a deal with a role; roles match exactly on the role name, and
 * an unrecognized role token reaches nobody). The built-in roles below, plus each organization's custom roles, whose
 * names are unique case-insensitively (so two roles never differ by case alone and an exact match is unambiguous).
 */
import { InvalidInput } from '#domain/errors';

/** The built-in roles, in the order a deal shows its parties. */
export const CONTACT_ROLES = ['Buyer', 'Seller', "Buyer's Agent", 'Listing Agent', 'Escrow Officer / Title'] as const;

/** A built-in role name. */
export type BuiltInRole = (typeof CONTACT_ROLES)[number];

/** The case-insensitive identity of a role name (custom role uniqueness). */
export const roleKey = (name: string): string => name.trim().toLowerCase();

/** The built-in role whose name equals `name` case-insensitively, or undefined. */
export const builtInRoleLike = (name: string): BuiltInRole | undefined => CONTACT_ROLES.find((r) => roleKey(r) === roleKey(name));

/**
 * The role named exactly `role` (no trimming, no case folding) among `known`.
 * @param known every role of the organization (built-in first, then custom)
 * @returns the role name
 * @throws InvalidInput on `role` listing the known roles (and the exact spelling when only case differs)
 */
export function matchRole(role: string, known: readonly string[]): string {
  if (known.includes(role)) return role;
  const near = known.find((k) => roleKey(k) === roleKey(role));
  const hint = near ? ` (roles match exactly: did you mean '${near}'?)` : '';
  throw new InvalidInput({ role: `is not a known role${hint}; known roles: ${known.join(', ')}` });
}
