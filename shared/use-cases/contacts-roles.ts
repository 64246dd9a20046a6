/**
 * Contact roles of an organization: the built-in roles plus its custom roles (names unique case-insensitively,
 * built-in names included), and the exact match a link's role must make.
 */
import { listCustomRoles, putCustomRole } from '#db/contact-roles';
import type { Actor } from '#events/outbox';
import { builtInRoleLike, CONTACT_ROLES, matchRole, roleKey } from '#domain/contact-roles';
import { Conflict } from '#domain/errors';

/** A role as the API shows it. `createdAt` is ISO 8601, null for built-in roles. */
export interface ContactRoleView {
  name: string;
  builtIn: boolean;
  description: string | null;
  createdAt: string | null;
}

const builtIns = (): ContactRoleView[] => CONTACT_ROLES.map((name) => ({ name, builtIn: true, description: null, createdAt: null }));

/** Built-in roles in display order, then the organization's custom roles by name. */
export async function listContactRoles(orgId: string): Promise<ContactRoleView[]> {
  const custom = await listCustomRoles(orgId);
  return [...builtIns(), ...custom.map((r) => ({ name: r.name, builtIn: false, description: r.description, createdAt: r.createdAt }))];
}

/**
 * Adds a custom role.
 * @param input.name trimmed, 1–100 characters (validated by the operation)
 * @throws Conflict when a built-in or custom role already has that name in any case (the message names it)
 */
export async function createContactRole(actor: Actor, input: { name: string; description?: string | null }, now: Date): Promise<ContactRoleView> {
  const builtIn = builtInRoleLike(input.name);
  if (builtIn) throw new Conflict(`'${builtIn}' is a built-in role.`, { name: `is the built-in role '${builtIn}'` });
  const role = { name: input.name, description: input.description ?? null, createdAt: now.toISOString(), createdBy: actor.userId };
  if (!(await putCustomRole(actor.orgId, role))) {
    const existing = (await listCustomRoles(actor.orgId)).find((r) => roleKey(r.name) === roleKey(input.name));
    throw new Conflict(`The role '${existing?.name ?? input.name}' already exists.`, { name: `the custom role '${existing?.name ?? input.name}' already exists` });
  }
  return { name: role.name, builtIn: false, description: role.description, createdAt: role.createdAt };
}

/**
 * The role named exactly `role` in the organization (built-in or custom).
 * @throws InvalidInput on `role` listing the organization's roles when none matches exactly
 */
export async function resolveContactRole(orgId: string, role: string): Promise<string> {
  if ((CONTACT_ROLES as readonly string[]).includes(role)) return role;
  return matchRole(role, (await listContactRoles(orgId)).map((r) => r.name));
}
