/** Response schema of the organization's settings (designed here, issue 25: the spec shows no settings shape). */
import * as z from '#api/zod';
import { nullableString, resource, timestamp } from '#api/responses/common';

export const OrgSettings = resource(
  'OrgSettings',
  "The organization's branding on its public pages and OAuth consent page: display name (null: the workspace name), https logo URL and accent colour `#rrggbb` (null: the defaults).",
  z.object({
    organizationId: z.string(),
    name: z.string(),
    displayName: nullableString(),
    logoUrl: nullableString(),
    accentColor: nullableString(),
    updatedAt: z.nullable(timestamp()),
  }),
);
