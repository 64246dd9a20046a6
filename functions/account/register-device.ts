/** `POST /api/v1/devices/register`: registers or refreshes a device of the authenticated user. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { deviceResponse } from '#api/responses/pages';
import { deviceIdOf, putDevice } from '#db/notifications';
import { InvalidInput } from '#domain/errors';
import { boundedRecord, jsonScalar } from '#api/schemas/free-form';

export default defineOperation({
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
  example: { body: { installationId: 'ios-7f3a9c', platform: 'ios', appVersion: '2.4.0', pushToken: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90', capabilities: ['push'], permissions: { alert: true } } },
  response: deviceResponse,
  /** `{data: Device}` (the push token is never shown back; `pushEnabled` says whether one is registered). 422 without `installationId`. */
  handler: async ({ body }, { principal, now }) => {
    const installationId = body.installationId?.trim();
    if (!installationId) throw new InvalidInput({ installationId: 'is required: it identifies the device across refreshes' });
    const at = now.toISOString();
    const { device, created } = await putDevice(principal.orgId, {
      deviceId: deviceIdOf(principal.orgId, principal.userId, installationId),
      userId: principal.userId,
      installationId,
      platform: body.platform?.trim().toLowerCase() || null,
      appVersion: body.appVersion?.trim() || null,
      pushToken: body.pushToken?.trim() || null,
      capabilities: body.capabilities ?? null,
      permissions: body.permissions ?? null,
      registeredAt: at,
      updatedAt: at,
    });
    const { pushToken, ...shown } = device;
    return { body: { data: { ...shown, pushEnabled: !!pushToken, created } } };
  },
});
