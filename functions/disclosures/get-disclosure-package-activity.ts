/** `GET /api/v1/disclosure-packages/{packageId}/activity`: report of the package recipients' activity. */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'getDisclosurePackageActivity',
  method: 'GET',
  path: '/api/v1/disclosure-packages/{packageId}/activity',
  access: 'read',
  summary: "Report of the package recipients' activity.",
  schemas: () => ({ path: uuidPath('packageId') }),
  planned: 'issue #12 (pages for people outside the team)',
});
