/**
 * Response schemas of what faces people outside the team (spec "Disclosure packages", "Templates and forms",
 * "Organization"): disclosure packages and their activity, intake forms, submissions, form and portal links,
 * notifications and devices. The spec shows none of these shapes: they are this service's own design.
 */
import * as z from '#api/zod';
import { dataOf, id, listOf, nullableString, resource, timestamp } from '#api/responses/common';

const recipientStatus = () => z.enum(['invited', 'viewed', 'acknowledged', 'revoked', 'expired']);

export const DisclosureRecipient = resource(
  'DisclosureRecipient',
  'A recipient of a disclosure package: their address, link expiry and what they did (no link: it is only in their email). ' +
    '`emailStatus` is the share email: `queued` until the send worker sends it, then `sent`, `failed` (refused, or the address suppressed by a bounce or complaint; `emailDetail` says why) ' +
    'or `unknown` (interrupted after it may have gone out; not resent). Revoke and invite again to resend.',
  z.object({
    id: id(),
    packageId: id(),
    email: z.string(),
    displayLabel: nullableString(),
    audienceTier: nullableString(),
    contactId: z.nullable(id()),
    expiresAt: timestamp(),
    invitedAt: timestamp(),
    invitedBy: nullableString(),
    revokedAt: z.nullable(timestamp()),
    firstViewedAt: z.nullable(timestamp()),
    lastViewedAt: z.nullable(timestamp()),
    viewCount: z.int(),
    acknowledgedAt: z.nullable(timestamp()),
    status: recipientStatus(),
    emailStatus: z.enum(['queued', 'sent', 'failed', 'unknown']),
    emailDetail: nullableString(),
  }),
);

export const DisclosurePackage = resource(
  'DisclosurePackage',
  'A disclosure package: documents (items, in order) shared with invited recipients. `draft` until activated.',
  z.object({
    id: id(),
    name: z.string(),
    coverMessage: nullableString(),
    transactionId: z.nullable(id()),
    documentIds: z.array(id()),
    items: z.array(z.object({ documentId: id(), order: z.int(), fileName: nullableString(), documentType: nullableString(), available: z.boolean() })),
    expiresAt: z.nullable(timestamp()),
    allowDownloads: z.boolean(),
    requireAck: z.boolean(),
    status: z.enum(['draft', 'active']),
    activatedAt: z.nullable(timestamp()),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    createdBy: nullableString(),
    recipients: z.array(DisclosureRecipient),
  }),
);

export const disclosurePackageResponse = () => dataOf(DisclosurePackage);
export const disclosureRecipientResponse = () => z.object({ data: DisclosureRecipient, package: DisclosurePackage });
export const revokeRecipientResponse = () => z.object({ data: DisclosureRecipient, alreadyRevoked: z.boolean() });

export const disclosureActivityResponse = () =>
  dataOf(
    resource(
      'DisclosureActivity',
      "A package's recipient-activity report: per recipient who viewed, downloaded and acknowledged what and when, and the log oldest first.",
      z.object({
        packageId: id(),
        requireAck: z.boolean(),
        summary: z.object({ recipients: z.int(), viewed: z.int(), acknowledged: z.int(), revoked: z.int() }),
        recipients: z.array(
          z.object({
            recipientId: id(),
            email: z.string(),
            displayLabel: nullableString(),
            status: recipientStatus(),
            invitedAt: timestamp(),
            firstViewedAt: z.nullable(timestamp()),
            lastViewedAt: z.nullable(timestamp()),
            viewCount: z.int(),
            acknowledgedAt: z.nullable(timestamp()),
            revokedAt: z.nullable(timestamp()),
            downloads: z.array(z.object({ documentId: id(), at: timestamp() })),
          }),
        ),
        events: z.array(z.object({ id: id(), recipientId: id(), action: z.enum(['invited', 'viewed', 'downloaded', 'acknowledged', 'revoked']), documentId: z.nullable(id()), at: timestamp() })),
      }),
    ),
  );

export const FormDefinition = resource(
  'FormDefinition',
  'An intake form: a template with its field list (field types text, email, tel, date, textarea, select, checkbox).',
  z.object({
    id: id(),
    name: z.string(),
    purpose: z.string(),
    description: z.string(),
    sides: z.array(z.enum(['Buyer', 'Seller'])),
    version: z.int(),
    isSystem: z.boolean(),
    fields: z.array(
      z.object({
        name: z.string(),
        label: z.string(),
        type: z.enum(['text', 'email', 'tel', 'date', 'textarea', 'select', 'checkbox']),
        required: z.boolean(),
        maxLength: z.int(),
        options: z.optional(z.array(z.string())),
        help: z.optional(z.string()),
      }),
    ),
  }),
);
export const formResponse = () => dataOf(FormDefinition);

export const FormSubmission = resource(
  'FormSubmission',
  "A client's submission of an intake form, each field's label and value as submitted (a checkbox's value is `yes` or empty).",
  z.object({
    id: id(),
    transactionId: id(),
    formDefinitionId: id(),
    formName: z.string(),
    formPurpose: z.string(),
    formVersion: z.int(),
    status: z.enum(['received']),
    fields: z.array(z.object({ name: z.string(), label: z.string(), type: z.string(), value: z.string() })),
    receivedAt: timestamp(),
  }),
);
export const formSubmissionResponse = () => dataOf(FormSubmission);
export const formSubmissionsResponse = () => listOf(FormSubmission);

export const formLinksResponse = () =>
  z.object({
    transactionId: id(),
    data: z.array(z.object({ formId: id(), formName: z.string(), formPurpose: z.string(), url: z.string(), expiresAt: timestamp() })),
  });

export const intakeStatusResponse = () =>
  dataOf(
    z.object({
      transactionId: id(),
      complete: z.boolean(),
      submittedCount: z.int(),
      totalCount: z.int(),
      forms: z.array(
        z.object({
          formId: id(),
          formName: z.string(),
          formPurpose: z.string(),
          status: z.enum(['not_submitted', 'submitted']),
          submissionCount: z.int(),
          latestSubmissionId: z.nullable(id()),
          lastSubmittedAt: z.nullable(timestamp()),
        }),
      ),
    }),
  );

export const linkRevocationResponse = () => dataOf(z.object({ transactionId: id(), kind: z.enum(['portal', 'form']), revokedAt: timestamp() }));

export const portalLinkResponse = () => dataOf(z.object({ transactionId: id(), url: z.string(), expiresAt: timestamp(), active: z.boolean() }));

export const Notification = resource(
  'Notification',
  'A notice for a team member, derived from a domain event (a form submitted, a disclosure viewed, a task assigned).',
  z.object({
    id: z.string(),
    type: z.string(),
    title: z.string(),
    body: z.string(),
    transactionId: z.nullable(z.string()),
    eventId: z.string(),
    data: z.record(z.string(), z.unknown()),
    createdAt: timestamp(),
    readAt: z.nullable(timestamp()),
  }),
);
export const notificationsResponse = () => z.object({ data: z.array(Notification), unreadCount: z.int() });
export const unreadCountResponse = () => dataOf(z.object({ unreadCount: z.int() }));

export const deviceResponse = () =>
  dataOf(
    z.object({
      deviceId: z.string(),
      userId: z.string(),
      installationId: z.string(),
      platform: nullableString(),
      appVersion: nullableString(),
      pushEnabled: z.boolean(),
      capabilities: z.array(z.string()),
      permissions: z.record(z.string(), z.unknown()),
      registeredAt: timestamp(),
      updatedAt: timestamp(),
      created: z.boolean(),
    }),
  );
