/** `GET /api/v1/disclosure-packages/{packageId}`: one disclosure package with its items and recipients. */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'getDisclosurePackage',
  method: 'GET',
  path: '/api/v1/disclosure-packages/{packageId}',
  access: 'read',
  summary: 'One disclosure package with its items and recipients.',
  schemas: () => ({ path: uuidPath('packageId') }),
  planned: 'issue #12 (pages for people outside the team)',
});
