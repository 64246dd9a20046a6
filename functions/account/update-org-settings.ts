/**
 * `PATCH /api/v1/org/settings` (designed here, issue 25): changes the branding the public pages and the OAuth
 * consent page show (owner or admin only); omitted fields are kept, null clears.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { dataOf } from '#api/responses/common';
import { OrgSettings } from '#api/responses/org-settings';
import { ACCENT_PATTERN, DISPLAY_NAME_MAX, LOGO_URL_MAX } from '#domain/branding';
import { changeOrgSettings } from '#use-cases/org-settings';

export default defineOperation({
  operationId: 'updateOrgSettings',
  method: 'PATCH',
  path: '/api/v1/org/settings',
  access: 'actions',
  summary: "Changes the organization's branding (owner or admin; null clears).",
  designedHere: true,
  response: () => dataOf(OrgSettings),
  schemas: () => ({
    body: z.object({
      displayName: z.nullish(z.string().check(z.maxLength(DISPLAY_NAME_MAX))),
      logoUrl: z.nullish(z.string().check(z.maxLength(LOGO_URL_MAX), z.regex(/^https:\/\//i, 'must be an https URL'))),
      accentColor: z.nullish(z.string().check(z.maxLength(7), z.regex(ACCENT_PATTERN, 'must be a hex colour #rgb or #rrggbb'))),
    }),
  }),
  example: { body: { displayName: 'Hill Country Realty', logoUrl: 'https://www.hillcountryrealty.example/logo.png', accentColor: '#0b6e4f' } },
  handler: async ({ body }, { principal, now }) => ({ body: { data: await changeOrgSettings(principal, body, now) } }),
});
