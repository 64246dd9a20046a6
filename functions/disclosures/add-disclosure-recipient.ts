/** `POST /api/v1/disclosure-packages/{packageId}/recipients`: invites a recipient and sends the share email. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { dateTime, uuid, uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'addDisclosureRecipient',
  method: 'POST',
  path: '/api/v1/disclosure-packages/{packageId}/recipients',
  access: 'actions',
  idempotent: true,
  summary: 'Invites a recipient and sends the share email.',
  schemas: () => ({
    path: uuidPath('packageId'),
    body: z.object({
      audienceTier: z.nullable(z.string().check(z.maxLength(50))),
      displayLabel: z.nullable(z.string().check(z.maxLength(200))),
      email: z.nullable(z.string().check(z.maxLength(320))),
      contactId: z.nullable(uuid()),
      expiresAt: z.nullable(dateTime()),
    }),
  }),
  planned: 'issue #12 (pages for people outside the team)',
});
