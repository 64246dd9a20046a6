/**
 * Response schemas of contacts, roles and a deal's recipients (spec "Contact"), as shared/use-cases/contacts*.ts
 * return them.
 */
import * as z from '#api/zod';
import { id, nullableString, resource, timestamp } from '#api/responses/common';

const contactType = () => z.enum(['person', 'company']);

export const Contact = resource(
  'Contact',
  'A person or company of the organization; `name` is the display name (full name, company, else email or phone).',
  z.object({
    id: id(),
    type: contactType(),
    firstName: nullableString(),
    lastName: nullableString(),
    name: z.string(),
    email: nullableString(),
    phone: nullableString(),
    company: nullableString(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

export const ContactDetail = resource(
  'ContactDetail',
  'A contact with the deals it is linked to (most recent first) and its newest messages.',
  z.object({
    ...Contact.def.shape,
    transactions: z.array(
      z.object({ transactionId: id(), address: z.string(), status: z.string(), roles: z.array(z.object({ role: z.string(), isPrimary: z.boolean(), linkedAt: timestamp() })) }),
    ),
    hasMoreTransactions: z.boolean(),
    recentActivity: z.array(
      z.object({
        messageId: z.string(),
        transactionId: id(),
        channel: z.string(),
        direction: z.string(),
        kind: z.string(),
        status: z.string(),
        subject: nullableString(),
        preview: z.string(),
        createdAt: timestamp(),
      }),
    ),
  }),
);

export const ContactRole = resource(
  'ContactRole',
  'A contact role: built in, or the organization\'s own (roles match exactly on the name).',
  z.object({ name: z.string(), builtIn: z.boolean(), description: nullableString(), createdAt: z.nullable(timestamp()) }),
);

const availability = () => z.object({ address: nullableString(), available: z.boolean(), reason: nullableString() });

export const Recipient = resource(
  'Recipient',
  'A participant of a deal with the roles it holds and whether email and SMS reach it.',
  z.object({
    contactId: id(),
    name: z.string(),
    type: contactType(),
    company: nullableString(),
    roles: z.array(z.object({ role: z.string(), isPrimary: z.boolean() })),
    email: availability(),
    sms: availability(),
  }),
);

/** `GET .../recipients`: reachable participants, and with a channel the unreachable ones. */
export const recipientsResponse = () => z.object({ channel: nullableString(), data: z.array(Recipient), unreachable: z.array(Recipient) });
