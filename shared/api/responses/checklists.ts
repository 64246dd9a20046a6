/**
 * Response schemas of checklist templates, an applied checklist and the deal's aggregate checklist status
 * (shared/domain/checklists.ts, shared/use-cases/checklists.ts), and of the deal's open contingencies
 * (shared/domain/contingencies.ts).
 */
import * as z from '#api/zod';
import { day, id, nullableString, resource, timestamp } from '#api/responses/common';
import { Task } from '#api/responses/deals';

const section = () => z.enum(['earnest_money', 'option_period', 'financing', 'title_survey', 'hoa', 'closing']);

export const ChecklistTemplateItem = resource(
  'ChecklistTemplateItem',
  'A line of a checklist template: the task it becomes, due `offsetDays` from the key date `linkedKeyDate`.',
  z.object({
    key: z.string(),
    section: section(),
    title: z.string(),
    description: z.string(),
    linkedKeyDate: z.string(),
    offsetDays: z.int(),
    priority: z.int(),
    onlyIf: z.optional(z.enum(['financed', 'hoa'])),
  }),
);

export const ChecklistTemplate = resource(
  'ChecklistTemplate',
  'A checklist template (system templates ship with the service).',
  z.object({
    id: id(),
    name: z.string(),
    description: z.string(),
    category: z.string(),
    state: z.string(),
    side: z.enum(['Buyer', 'Seller']),
    transactionTypes: z.array(z.enum(['Sale', 'Purchase', 'Listing'])),
    complexity: z.enum(['simple', 'standard', 'complex']),
    form: z.string(),
    isActive: z.boolean(),
    isSystem: z.boolean(),
    items: z.array(ChecklistTemplateItem),
  }),
);

export const AppliedChecklistResult = resource(
  'AppliedChecklistResult',
  'What applying a checklist template did: tasks created, open checklist tasks removed (`replaceExisting`), items skipped and why.',
  z.object({
    transactionId: id(),
    templateId: id(),
    templateName: z.string(),
    sections: z.array(section()),
    created: z.array(Task),
    removedTaskIds: z.array(id()),
    skipped: z.array(z.object({ key: z.string(), title: z.string(), reason: z.enum(['out_of_scope', 'not_in_contract', 'already_on_deal']) })),
  }),
);

const countsShape = {
  total: z.int(),
  completed: z.int(),
  open: z.int(),
  overdue: z.int(),
  percentComplete: z.int(),
  status: z.enum(['none', 'not_started', 'in_progress', 'complete']),
};

export const TransactionChecklist = resource(
  'TransactionChecklist',
  "The deal's checklist: every task its applied templates made that still exists, with counts overall and per section.",
  z.object({
    transactionId: id(),
    ...countsShape,
    templates: z.array(z.object({ templateId: id(), name: z.string(), firstAppliedAt: timestamp(), lastAppliedAt: timestamp() })),
    sections: z.array(z.object({ section: section(), ...countsShape })),
    items: z.array(
      z.object({
        taskId: id(),
        key: z.string(),
        section: section(),
        templateId: id(),
        title: z.string(),
        dueDate: z.nullable(day()),
        linkedKeyDate: nullableString(),
        status: z.enum(['open', 'completed']),
        completedAt: z.nullable(timestamp()),
        overdue: z.boolean(),
      }),
    ),
  }),
);

export const Contingency = resource(
  'Contingency',
  'An open contingency of the deal, from its applied contract and key dates, with its deadline and state.',
  z.object({
    type: z.enum(['option_period', 'financing', 'appraisal', 'title_survey', 'hoa']),
    label: z.string(),
    keyDateType: nullableString(),
    deadline: z.nullable(day()),
    state: z.enum(['open', 'due_today', 'past_deadline', 'no_deadline']),
    daysRemaining: z.nullable(z.int()),
    basis: z.string(),
  }),
);
