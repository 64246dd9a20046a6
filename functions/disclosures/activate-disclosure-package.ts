/** `POST /api/v1/disclosure-packages/{packageId}/activate`: activates a disclosure package (a no-op when already active). */
import { defineOperation } from '#api/operation';
import { disclosurePackageResponse } from '#api/responses/pages';
import { activateDisclosurePackage, packageView } from '#use-cases/disclosures';
import { uuidPath } from '#api/params';

export default defineOperation({
  operationId: 'activateDisclosurePackage',
  method: 'POST',
  path: '/api/v1/disclosure-packages/{packageId}/activate',
  access: 'actions',
  summary: 'Activates a disclosure package (a no-op when already active).',
  schemas: () => ({ path: uuidPath('packageId') }),
  response: disclosurePackageResponse,
  /** `{data: DisclosurePackage}`; an active package is returned as it is. 422 when the package has no documents. */
  handler: async ({ path }, { principal, now }) => ({ body: { data: await packageView(principal.orgId, await activateDisclosurePackage(principal, path.packageId, now), now) } }),
});
