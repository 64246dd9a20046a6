/**
 * Manifest: spec "Contacts" (6 operations: the 4 listed plus update contact and list contact roles,
 * which the spec leaves "not shown" and are designed here), and the contact row of spec "Transactions"
 * (`POST /api/v1/transactions/{transactionId}/contacts`, linking an existing contact with a role), which
 * the contacts function also serves. CreateContactRequest and CreateContactRoleRequest are designed here.
 */
import * as z from '#api/zod';
import type { OperationSpec } from '#api/types';
import { int32, uuid } from '#api/params';

const planned = { status: 'planned', issue: 'not yet filed (contacts)' } as const;
const contactPath = z.object({ contactId: uuid() });

/** Writable contact fields (designed here; the spec shows no record fields). */
const contactFields = {
  firstName: z.nullish(z.string().check(z.trim(), z.maxLength(100))),
  lastName: z.nullish(z.string().check(z.trim(), z.maxLength(100))),
  email: z.nullish(z.email('must be an email address').check(z.maxLength(320))),
  phone: z.nullish(z.string().check(z.trim(), z.maxLength(32))),
  company: z.nullish(z.string().check(z.trim(), z.maxLength(200))),
  /** Person or company; the vocabulary is not shown in the spec. */
  type: z.nullish(z.string().check(z.trim(), z.maxLength(50))),
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
    schemas: () => ({
      query: z.object({
        q: z.optional(z.string().check(z.maxLength(200))),
        type: z.optional(z.string().check(z.maxLength(50))),
        page: z._default(int32({ min: 1, max: 10_000 }), 1),
        pageSize: z._default(int32({ min: 1, max: 100 }), 25),
      }),
    }),
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
    schemas: () => ({ body: z.optional(z.object(contactFields)) }),
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
    schemas: () => ({
      path: contactPath,
      query: z.object({ activityLimit: z._default(int32({ min: 0, max: 100 }), 10) }),
    }),
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
    schemas: () => ({ path: contactPath, body: z.object(contactFields) }),
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
    schemas: () => ({}),
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
    schemas: () => ({
      body: z.object({
        name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
        description: z.nullish(z.string().check(z.maxLength(1000))),
      }),
    }),
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
    schemas: () => ({
      path: z.object({ transactionId: uuid() }),
      body: z.object({
        contactId: z.nullable(uuid()),
        role: z.nullable(z.string().check(z.maxLength(100))),
        isPrimary: z.nullable(z.boolean()),
      }),
    }),
    availability: planned,
  },
];
