/** `GET /api/v1/disclosure-packages/{packageId}`: one disclosure package with its items and recipients. */
import { defineOperation } from '#api/operation';
import { disclosurePackageResponse } from '#api/responses/pages';
import { getPackageState } from '#db/disclosures';
import { packageView } from '#use-cases/disclosures';
import { uuidPath } from '#api/params';

export default defineOperation({
  operationId: 'getDisclosurePackage',
  method: 'GET',
  path: '/api/v1/disclosure-packages/{packageId}',
  access: 'read',
  summary: 'One disclosure package with its items and recipients.',
  schemas: () => ({ path: uuidPath('packageId') }),
  response: disclosurePackageResponse,
  /** `{data: DisclosurePackage}` with items (documents in order) and recipients. */
  handler: async ({ path }, { principal, now }) => ({ body: { data: await packageView(principal.orgId, await getPackageState(principal.orgId, path.packageId), now) } }),
});
