/** `PUT /api/v1/disclosure-packages/{packageId}/documents`: replaces the package's document list. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { disclosurePackageResponse } from '#api/responses/pages';
import { packageView, replaceDisclosureDocuments } from '#use-cases/disclosures';
import { uuid, uuidPath } from '#api/params';

export default defineOperation({
  operationId: 'replaceDisclosurePackageDocuments',
  method: 'PUT',
  path: '/api/v1/disclosure-packages/{packageId}/documents',
  access: 'actions',
  summary: "Replaces the package's document list.",
  schemas: () => ({
    path: uuidPath('packageId'),
    body: z.object({ documentIds: z.nullable(z.array(uuid()).check(z.maxLength(200))) }),
  }),
  example: { body: { documentIds: ['3f1d2c4b-5a69-4e7f-8a1b-2c3d4e5f6a7b'] } },
  response: disclosurePackageResponse,
  /** `{data: DisclosurePackage}`. Documents must be uploaded, of the organization (and of the package's deal). */
  handler: async ({ path, body }, { principal, now }) => ({ body: { data: await packageView(principal.orgId, await replaceDisclosureDocuments(principal, path.packageId, body.documentIds, now), now) } }),
});
