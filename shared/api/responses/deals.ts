/**
 * Response schemas of a deal and what its item collection holds (spec "Transaction", "Key date", "Task"):
 * as shared/db/transactions.ts, key-date-items.ts, task-items.ts, tasks.ts, activity.ts and contacts.ts
 * return them.
 */
import * as z from '#api/zod';
import { dataOf, day, id, nullableString, resource, timestamp } from '#api/responses/common';

export const PropertyAddress = resource(
  'PropertyAddress',
  'The property address as parsed; `address` on the transaction is its one-line form.',
  z.object({ street: z.string(), city: nullableString(), state: nullableString(), zip: nullableString() }),
);

export const Transaction = resource(
  'Transaction',
  'A deal: one property changing hands. `status` is from the organization\'s vocabulary (`GET /api/v1/transaction-statuses`).',
  z.object({
    id: id(),
    propertyAddress: PropertyAddress,
    address: z.string(),
    transactionType: z.enum(['Sale', 'Purchase', 'Listing']),
    side: z.enum(['Buyer', 'Seller']),
    status: z.string(),
    notes: nullableString(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    closedAt: z.nullable(timestamp()),
    version: z.int(),
  }),
);

export const KeyDate = resource(
  'KeyDate',
  'A calendar date of a deal; a type appears at most once per deal.',
  z.object({
    transactionId: id(),
    keyDateType: z.string(),
    dateValue: day(),
    isCustom: z.boolean(),
    label: nullableString(),
    source: nullableString(),
    calculationNotes: nullableString(),
    completedAt: z.nullable(timestamp()),
    address: z.string(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

export const Task = resource(
  'Task',
  'A work item on a deal; with `linkedMilestoneName` its due date follows that key date (+ `dueOffsetDays`).',
  z.object({
    id: id(),
    transactionId: id(),
    title: z.string(),
    description: nullableString(),
    dueDate: z.nullable(day()),
    priority: z.nullable(z.int()),
    assigneeUserId: nullableString(),
    linkedMilestoneName: nullableString(),
    dueOffsetDays: z.nullable(z.int()),
    status: z.enum(['open', 'completed']),
    completedAt: z.nullable(timestamp()),
    completedBy: nullableString(),
    completionNote: nullableString(),
    address: z.string(),
    createdAt: timestamp(),
    createdBy: nullableString(),
  }),
);

export const TaskComment = resource(
  'TaskComment',
  'A comment on a task; only its author may delete it.',
  z.object({ id: id(), taskId: id(), content: z.string(), authorUserId: nullableString(), createdAt: timestamp() }),
);

export const Activity = resource(
  'Activity',
  'An entry of a deal\'s activity log.',
  z.object({ id: id(), transactionId: id(), type: z.string(), summary: z.string(), details: nullableString(), userId: nullableString(), createdAt: timestamp() }),
);

export const TransactionContact = resource(
  'TransactionContact',
  'A contact linked to a deal with a role.',
  z.object({
    transactionId: id(),
    contactId: id(),
    role: z.string(),
    isPrimary: z.boolean(),
    type: z.enum(['person', 'company']),
    name: z.string(),
    email: nullableString(),
    phone: nullableString(),
    company: nullableString(),
    linkedAt: timestamp(),
  }),
);

export const Reminder = resource(
  'Reminder',
  'A deadline reminder email: `daysBeforeReminder` days before `deadlineDate` at `reminderTimeOfDay` in `timezone` (the organization\'s). With a `deadlineType` it follows that key date. `pending` → `sending` → `sent` | `failed`; `expired` when its key date moved so that its time had passed.',
  z.object({
    id: id(),
    transactionId: id(),
    status: z.enum(['pending', 'sending', 'sent', 'failed', 'expired']),
    deadlineType: nullableString(),
    deadlineDate: day(),
    daysBeforeReminder: z.int(),
    reminderTimeOfDay: z.string(),
    timezone: z.string(),
    /** Wall-clock send time in `timezone`. */
    scheduledLocal: z.string(),
    sendAt: timestamp(),
    emailTemplateId: id(),
    recipientRoles: z.array(z.string()),
    recipientEmails: z.array(z.string()),
    note: nullableString(),
    milestoneId: nullableString(),
    generation: z.int(),
    createdBy: nullableString(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    sentAt: z.nullable(timestamp()),
    sentMessageId: nullableString(),
    error: nullableString(),
  }),
);

export const StatusSummary = resource(
  'StatusSummary',
  'A status summary of a deal for one audience; saving again for the same audience (case-insensitively) replaces it.',
  z.object({
    transactionId: id(),
    audience: z.string(),
    subject: nullableString(),
    bodyMarkdown: nullableString(),
    keyPointBullets: z.array(z.string()),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    updatedBy: nullableString(),
  }),
);

export const Deal = resource(
  'Deal',
  'A transaction with its key dates (by date), tasks (by due date), recent activity, linked contacts, reminders (by send time) and status summaries (one per audience, latest first).',
  z.object({
    ...Transaction.def.shape,
    keyDates: z.array(KeyDate),
    tasks: z.array(Task),
    recentActivity: z.array(Activity),
    contacts: z.array(TransactionContact),
    reminders: z.array(Reminder),
    statusSummaries: z.array(StatusSummary),
  }),
);

/** `{ data: Deal }`. */
export const dealResponse = () => dataOf(Deal);

export const NextAction = resource(
  'NextAction',
  'An entry of the ranked next-actions feed: an open task (`taskId`) or an upcoming key date (`keyDateType`).',
  z.object({
    kind: z.enum(['task', 'keyDate']),
    transactionId: id(),
    address: z.string(),
    title: z.string(),
    date: z.nullable(day()),
    /** Days from today (negative when past), null when undated. */
    daysUntil: z.nullable(z.int()),
    overdue: z.boolean(),
    priority: z.nullable(z.int()),
    taskId: z.optional(id()),
    keyDateType: z.optional(z.string()),
  }),
);

export const UpcomingKeyDate = resource(
  'UpcomingKeyDate',
  'A key date of the cross-deal upcoming list, with the days from today (0 = today).',
  z.object({ ...KeyDate.def.shape, daysUntil: z.int() }),
);
