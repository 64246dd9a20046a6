/** `GET /api/v1/disclosure-packages/{packageId}/activity`: report of the package recipients' activity. */
import { defineOperation } from '#api/operation';
import { disclosureActivityResponse } from '#api/responses/pages';
import { getPackageState } from '#db/disclosures';
import { activityView } from '#use-cases/disclosures';
import { uuidPath } from '#api/params';

export default defineOperation({
  operationId: 'getDisclosurePackageActivity',
  method: 'GET',
  path: '/api/v1/disclosure-packages/{packageId}/activity',
  access: 'read',
  summary: "Report of the package recipients' activity.",
  schemas: () => ({ path: uuidPath('packageId') }),
  response: disclosureActivityResponse,
  /** `{data: {packageId, requireAck, summary, recipients[], events[]}}`. */
  handler: async ({ path }, { principal, now }) => ({ body: { data: activityView(await getPackageState(principal.orgId, path.packageId), now) } }),
});
