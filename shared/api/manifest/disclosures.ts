/**
 * Manifest: spec "Disclosure packages" — create, read, activate, recipient-activity report, replace the
 * document list, invite recipients (share email) and revoke a recipient. The table's `...` rows are
 * under `/api/v1/disclosure-packages`. Activate and revoke are idempotent by nature; only the recipient
 * invite is marked (IK).
 */
import * as z from '#api/zod';
import type { OperationSpec } from '#api/types';
import { dateTime, uuid } from '#api/params';

const planned = { status: 'planned', issue: 'not yet filed (disclosures)' } as const;
const packagePath = z.object({ packageId: uuid() });

export const disclosuresOperations: OperationSpec[] = [
  {
    operationId: 'createDisclosurePackage',
    method: 'POST',
    path: '/api/v1/disclosure-packages',
    access: 'actions',
    idempotent: false,
    group: 'disclosures',
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
    availability: planned,
  },
  {
    operationId: 'getDisclosurePackage',
    method: 'GET',
    path: '/api/v1/disclosure-packages/{packageId}',
    access: 'read',
    idempotent: false,
    group: 'disclosures',
    summary: 'One disclosure package with its items and recipients.',
    schemas: () => ({ path: packagePath }),
    availability: planned,
  },
  {
    operationId: 'activateDisclosurePackage',
    method: 'POST',
    path: '/api/v1/disclosure-packages/{packageId}/activate',
    access: 'actions',
    idempotent: false,
    group: 'disclosures',
    summary: 'Activates a disclosure package (a no-op when already active).',
    schemas: () => ({ path: packagePath }),
    availability: planned,
  },
  {
    operationId: 'getDisclosurePackageActivity',
    method: 'GET',
    path: '/api/v1/disclosure-packages/{packageId}/activity',
    access: 'read',
    idempotent: false,
    group: 'disclosures',
    summary: "Report of the package recipients' activity.",
    schemas: () => ({ path: packagePath }),
    availability: planned,
  },
  {
    operationId: 'replaceDisclosurePackageDocuments',
    method: 'PUT',
    path: '/api/v1/disclosure-packages/{packageId}/documents',
    access: 'actions',
    idempotent: false,
    group: 'disclosures',
    summary: "Replaces the package's document list.",
    schemas: () => ({
      path: packagePath,
      body: z.object({ documentIds: z.nullable(z.array(uuid()).check(z.maxLength(200))) }),
    }),
    availability: planned,
  },
  {
    operationId: 'addDisclosureRecipient',
    method: 'POST',
    path: '/api/v1/disclosure-packages/{packageId}/recipients',
    access: 'actions',
    idempotent: true,
    group: 'disclosures',
    summary: 'Invites a recipient and sends the share email.',
    schemas: () => ({
      path: packagePath,
      body: z.object({
        audienceTier: z.nullable(z.string().check(z.maxLength(50))),
        displayLabel: z.nullable(z.string().check(z.maxLength(200))),
        email: z.nullable(z.string().check(z.maxLength(320))),
        contactId: z.nullable(uuid()),
        expiresAt: z.nullable(dateTime()),
      }),
    }),
    availability: planned,
  },
  {
    operationId: 'revokeDisclosureRecipient',
    method: 'DELETE',
    path: '/api/v1/disclosure-packages/{packageId}/recipients/{recipientId}',
    access: 'actions',
    idempotent: false,
    group: 'disclosures',
    summary: "Revokes a recipient's access (a no-op when already revoked).",
    schemas: () => ({ path: z.object({ packageId: uuid(), recipientId: uuid() }) }),
    availability: planned,
  },
];
