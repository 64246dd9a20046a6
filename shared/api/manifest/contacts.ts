/**
 * Manifest: spec "Contacts" (6 operations: the 4 listed plus update contact and list contact roles,
 * which the spec leaves "not shown" and are designed here), and the contact row of spec "Transactions"
 * (`POST /api/v1/transactions/{transactionId}/contacts`, linking an existing contact with a role), which
 * the contacts function also serves. CreateContactRequest and CreateContactRoleRequest are designed here.
 */
import { z } from 'zod';
import type { OperationSpec } from '#api/types';
import { int32, uuid } from '#api/params';

const planned = { status: 'planned', issue: 'not yet filed (contacts)' } as const;
const contactPath = z.object({ contactId: uuid() });

/** Writable contact fields (designed here; the spec shows no record fields). */
const contactFields = {
  firstName: z.string().trim().max(100).nullish(),
  lastName: z.string().trim().max(100).nullish(),
  email: z.email('must be an email address').max(320).nullish(),
  phone: z.string().trim().max(32).nullish(),
  company: z.string().trim().max(200).nullish(),
  /** Person or company; the vocabulary is not shown in the spec. */
  type: z.string().trim().max(50).nullish(),
};

export const contactsOperations: OperationSpec[] = [
  {
    operationId: 'listContacts',
    method: 'GET',
    path: '/api/v1/contacts',
    access: 'read',
    idempotent: false,
    group: 'contacts',
    summary: "The organization's contacts, filtered by text and type.",
    schemas: {
      query: z.object({
        q: z.string().max(200).optional(),
        type: z.string().max(50).optional(),
        page: int32({ min: 1, max: 10_000 }).default(1),
        pageSize: int32({ min: 1, max: 100 }).default(25),
      }),
    },
    availability: planned,
  },
  {
    operationId: 'createContact',
    method: 'POST',
    path: '/api/v1/contacts',
    access: 'actions',
    idempotent: false,
    group: 'contacts',
    summary: 'Creates a contact (CreateContactRequest designed here; body optional).',
    schemas: { body: z.object(contactFields).optional() },
    availability: planned,
    designedHere: true,
  },
  {
    operationId: 'getContact',
    method: 'GET',
    path: '/api/v1/contacts/{contactId}',
    access: 'read',
    idempotent: false,
    group: 'contacts',
    summary: 'One contact with its recent activity.',
    schemas: {
      path: contactPath,
      query: z.object({ activityLimit: int32({ min: 0, max: 100 }).default(10) }),
    },
    availability: planned,
  },
  {
    operationId: 'updateContact',
    method: 'PATCH',
    path: '/api/v1/contacts/{contactId}',
    access: 'actions',
    idempotent: false,
    group: 'contacts',
    summary: "Changes a contact's fields; omitted fields are kept, null clears.",
    schemas: { path: contactPath, body: z.object(contactFields) },
    availability: planned,
    designedHere: true,
  },
  {
    operationId: 'listContactRoles',
    method: 'GET',
    path: '/api/v1/contact-roles',
    access: 'read',
    idempotent: false,
    group: 'contacts',
    summary: 'The contact roles of the organization, built-in and custom.',
    schemas: {},
    availability: planned,
    designedHere: true,
  },
  {
    operationId: 'createContactRole',
    method: 'POST',
    path: '/api/v1/contact-roles',
    access: 'actions',
    idempotent: false,
    group: 'contacts',
    summary: 'Creates a custom contact role (CreateContactRoleRequest designed here).',
    schemas: {
      body: z.object({
        name: z.string().trim().min(1).max(100),
        description: z.string().max(1000).nullish(),
      }),
    },
    availability: planned,
    designedHere: true,
  },
  {
    operationId: 'linkTransactionContact',
    method: 'POST',
    path: '/api/v1/transactions/{transactionId}/contacts',
    access: 'actions',
    idempotent: false,
    group: 'contacts',
    summary: 'Links an existing contact to the deal with a role.',
    schemas: {
      path: z.object({ transactionId: uuid() }),
      body: z.object({
        contactId: uuid().nullable(),
        role: z.string().max(100).nullable(),
        isPrimary: z.boolean().nullable(),
      }),
    },
    availability: planned,
  },
];
