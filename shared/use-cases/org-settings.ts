/**
 * Reading and changing the organization's settings (designed here, issue 25): its branding on the pages people
 * outside the team open. Only the owner or an admin changes them, as they speak for the whole brokerage.
 */
import type { Principal } from '#db/api-keys';
import { getUser } from '#db/orgs';
import { getOrgSettings, updateOrgSettings, type OrgSettings, type OrgSettingsChange } from '#db/org-settings';
import { checkLogoUrl, normalizeAccent, resolveBranding, type Branding } from '#domain/branding';
import { Forbidden, InvalidInput, NotFound } from '#domain/errors';

/**
 * The calling organization's settings.
 * @throws NotFound when the organization is gone
 */
export async function readOrgSettings(principal: Principal): Promise<OrgSettings> {
  const settings = await getOrgSettings(principal.orgId);
  if (!settings) throw new NotFound('Organization');
  return settings;
}

/**
 * Changes the branding: omitted fields are kept, null clears; a blank display name clears it; the accent is stored
 * as `#rrggbb` in lower case and the logo URL as the URL parser writes it.
 * @throws Forbidden when the caller is neither the owner nor an admin; InvalidInput `{accentColor}` or `{logoUrl}`
 *   for a value the pages could not show safely; NotFound when the organization is gone
 */
export async function changeOrgSettings(principal: Principal, input: OrgSettingsChange, now: Date): Promise<OrgSettings> {
  const role = (await getUser(principal.orgId, principal.userId))?.role;
  if (role !== 'owner' && role !== 'admin') throw new Forbidden("Only the workspace's owner or an admin can change its settings.");
  const change: OrgSettingsChange = {};
  const fields: Record<string, string> = {};
  if (input.displayName !== undefined) change.displayName = input.displayName?.trim() || null;
  if (input.accentColor !== undefined) {
    const accent = input.accentColor === null ? null : normalizeAccent(input.accentColor);
    if (accent === undefined) fields.accentColor = 'must be a hex colour #rgb or #rrggbb';
    else change.accentColor = accent;
  }
  if (input.logoUrl !== undefined) {
    const logo = input.logoUrl === null ? null : checkLogoUrl(input.logoUrl);
    if (logo && 'error' in logo) fields.logoUrl = logo.error;
    else change.logoUrl = logo?.url ?? null;
  }
  if (Object.keys(fields).length) throw new InvalidInput(fields);
  return updateOrgSettings(principal.orgId, change, now);
}

/**
 * The branding a page of the organization shows (display name or workspace name, logo, accent; defaults where
 * unset or unreadable).
 * @returns undefined when the organization is gone
 */
export async function pageBranding(orgId: string): Promise<Branding | undefined> {
  const settings = await getOrgSettings(orgId);
  return settings && resolveBranding(settings);
}
