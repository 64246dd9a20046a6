/** `PUT /api/v1/disclosure-packages/{packageId}/documents`: replaces the package's document list. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'replaceDisclosurePackageDocuments',
  method: 'PUT',
  path: '/api/v1/disclosure-packages/{packageId}/documents',
  access: 'actions',
  summary: "Replaces the package's document list.",
  schemas: () => ({
    path: uuidPath('packageId'),
    body: z.object({ documentIds: z.nullable(z.array(uuid()).check(z.maxLength(200))) }),
  }),
  planned: 'issue #12 (pages for people outside the team)',
});
