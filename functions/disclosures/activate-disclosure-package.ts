/** `POST /api/v1/disclosure-packages/{packageId}/activate`: activates a disclosure package (a no-op when already active). */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'activateDisclosurePackage',
  method: 'POST',
  path: '/api/v1/disclosure-packages/{packageId}/activate',
  access: 'actions',
  summary: 'Activates a disclosure package (a no-op when already active).',
  schemas: () => ({ path: uuidPath('packageId') }),
  planned: 'issue #12 (pages for people outside the team)',
});
