/** `POST /api/v1/devices/register`: registers or refreshes a device of the authenticated user. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { boundedRecord, jsonScalar } from '#api/schemas/free-form';

export default plannedOperation({
  operationId: 'registerDevice',
  method: 'POST',
  path: '/api/v1/devices/register',
  access: 'actions',
  summary: 'Registers or refreshes a device of the authenticated user.',
  schemas: () => ({
    body: z.object({
      appVersion: z.nullish(z.string().check(z.maxLength(50))),
      installationId: z.nullish(z.string().check(z.maxLength(200))),
      platform: z.nullish(z.string().check(z.maxLength(50))),
      pushToken: z.nullish(z.string().check(z.maxLength(4096))),
      capabilities: z.nullish(z.array(z.string().check(z.maxLength(100))).check(z.maxLength(100))),
      permissions: z.nullish(boundedRecord(z.string().check(z.maxLength(100)), jsonScalar(1000), 50)),
    }),
  }),
  planned: 'issue #12 (pages for people outside the team)',
});
