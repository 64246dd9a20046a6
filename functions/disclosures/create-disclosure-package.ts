/** `POST /api/v1/disclosure-packages`: creates a disclosure package, optionally with documents. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { disclosurePackageResponse } from '#api/responses/pages';
import { createDisclosurePackage, packageView } from '#use-cases/disclosures';
import { dateTime, uuid } from '#api/params';

export default defineOperation({
  operationId: 'createDisclosurePackage',
  method: 'POST',
  path: '/api/v1/disclosure-packages',
  access: 'actions',
  summary: 'Creates a disclosure package, optionally with documents.',
  schemas: () => ({
    body: z.object({
      name: z.nullish(z.string().check(z.maxLength(200))),
      coverMessage: z.nullish(z.string().check(z.maxLength(10_000))),
      transactionId: z.nullish(uuid()),
      documentIds: z.nullish(z.array(uuid()).check(z.maxLength(200))),
      expiresAt: z.nullish(dateTime()),
      allowDownloads: z.nullish(z.boolean()),
      requireAck: z.nullish(z.boolean()),
    }),
  }),
  example: { body: { name: 'Seller disclosures', coverMessage: 'Please review before the option period ends.', requireAck: true, allowDownloads: true } },
  response: disclosurePackageResponse,
  /** `{data: DisclosurePackage}`: active when created with documents, else a draft. */
  handler: async ({ body }, { principal, now }) => ({ body: { data: await packageView(principal.orgId, await createDisclosurePackage(principal, body, now), now) } }),
});
