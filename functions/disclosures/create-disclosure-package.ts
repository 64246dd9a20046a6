/** `POST /api/v1/disclosure-packages`: creates a disclosure package, optionally with documents. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { dateTime, uuid } from '#api/params';

export default plannedOperation({
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
  planned: 'issue #12 (pages for people outside the team)',
});
