/** `POST /api/v1/disclosure-packages/{packageId}/recipients`: invites a recipient and queues the share email (sent by functions/message-send). */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { disclosureRecipientResponse } from '#api/responses/pages';
import { publicBaseUrl } from '#ports/public-url';
import { inviteDisclosureRecipient, packageView, recipientStatus } from '#use-cases/disclosures';
import { dateTime, uuid, uuidPath } from '#api/params';

export default defineOperation({
  operationId: 'addDisclosureRecipient',
  method: 'POST',
  path: '/api/v1/disclosure-packages/{packageId}/recipients',
  access: 'actions',
  idempotent: true,
  summary: 'Invites a recipient and queues the share email.',
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
  uses: ['messages:queue'],
  example: { body: { email: 'buyer@example.com', displayLabel: 'Pat Buyer', audienceTier: 'buyer', contactId: null, expiresAt: null } },
  response: disclosureRecipientResponse,
  /** `{data: DisclosureRecipient, package}`. The link is only in the email. 409 while the package is a draft. */
  handler: async ({ path, body }, { principal, now, event }) => {
    const { state, recipient } = await inviteDisclosureRecipient(principal, path.packageId, body, publicBaseUrl(event.requestContext.domainName), now);
    return { body: { data: { ...recipient, status: recipientStatus(recipient, now) }, package: await packageView(principal.orgId, state, now) } };
  },
});
