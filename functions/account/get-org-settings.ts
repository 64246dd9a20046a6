/** `GET /api/v1/org/settings` (designed here, issue 25): the organization's branding settings. */
import { defineOperation } from '#api/operation';
import { dataOf } from '#api/responses/common';
import { OrgSettings } from '#api/responses/org-settings';
import { readOrgSettings } from '#use-cases/org-settings';

export default defineOperation({
  operationId: 'getOrgSettings',
  method: 'GET',
  path: '/api/v1/org/settings',
  access: 'read',
  summary: "The organization's branding: display name, logo URL, accent colour.",
  designedHere: true,
  response: () => dataOf(OrgSettings),
  handler: async (_input, { principal }) => ({ body: { data: await readOrgSettings(principal) } }),
});
