/**
 * Checklist use cases: list the templates, apply one to a deal (its items become tasks that follow the deal's
 * key dates, so they move with the deadline), and the deal's aggregate checklist status. Applying commits the
 * removed and created tasks (with `task.created`), the checklist records and the deal's touch in one
 * `TransactWriteItems`, on condition that the deal is unchanged since it was read.
 */
import { randomUUID } from 'node:crypto';
import { appliedChecklistDelete, appliedChecklistPut, listAppliedChecklists, type AppliedChecklist, type ChecklistEntry } from '#db/checklists';
import { latestAppliedExtraction } from '#db/applied-extractions';
import { newOpenTask, type Task } from '#db/task-items';
import { taskCreateItems } from '#use-cases/task-created';
import { deleteTaskComments, taskDeletes } from '#db/tasks';
import { getDeal, touchTransaction } from '#db/transactions';
import { MAX_TRANSACT_ITEMS, transactWrite, type TransactItem } from '#db/transact';
import type { Actor } from '#events/outbox';
import { dateOf } from '#domain/calendar';
import {
  checklistStatus,
  dueDateOf,
  parseScope,
  selectItems,
  SYSTEM_CHECKLIST_TEMPLATES,
  type ChecklistSection,
  type ChecklistStatus,
  type ChecklistTemplate,
  type SkippedItem,
} from '#domain/checklists';
import { Conflict, InvalidInput } from '#domain/errors';
import { retryStale, StaleRead } from '#use-cases/optimistic';

/** The body of `POST /transactions/{id}/checklist`. */
export interface ApplyChecklistInput {
  templateId: string;
  /** Remove the open tasks earlier checklists made (in the sections of `scope`) before adding these. Default false. */
  replaceExisting?: boolean | null;
  /** `all` (default) or comma-separated sections (`option_period,financing`). */
  scope?: string | null;
}

/** What applying did. */
export interface ApplyChecklistResult {
  transactionId: string;
  templateId: string;
  templateName: string;
  sections: ChecklistSection[];
  created: Task[];
  /** Ids of open checklist tasks removed by `replaceExisting`. */
  removedTaskIds: string[];
  skipped: SkippedItem[];
}

/**
 * The template with `templateId`.
 * @throws InvalidInput naming `templateId` when no template has it, or it is inactive
 */
export function checklistTemplate(templateId: string): ChecklistTemplate {
  const t = SYSTEM_CHECKLIST_TEMPLATES.find((x) => x.id === templateId);
  if (!t) throw new InvalidInput({ templateId: 'no checklist template has this id (GET /api/v1/checklist-templates lists them)' });
  if (!t.isActive) throw new InvalidInput({ templateId: `template '${t.name}' is inactive and cannot be applied` });
  return t;
}

/**
 * Applies a checklist template to a deal. Items already on the deal (same item key, task still there) are not
 * added twice, so applying again is safe; with `replaceExisting`, earlier checklists' OPEN tasks in the scope's
 * sections are removed first (completed ones stay as history) and the template's items are added afresh.
 * @throws NotFound for a missing deal; InvalidInput for an unknown/inactive template, a bad scope or a change
 *   too large for one transaction; Conflict when the deal kept changing
 */
export async function applyChecklist(actor: Actor, transactionId: string, input: ApplyChecklistInput, now: Date): Promise<ApplyChecklistResult> {
  const template = checklistTemplate(input.templateId);
  const scope = parseScope(input.scope);
  if ('error' in scope) throw new InvalidInput({ scope: scope.error });
  const { sections } = scope;
  return retryStale(async () => {
    // The deal first: a checklist change after this read bumps the deal's version and fails the commit.
    const deal = await getDeal(actor.orgId, transactionId);
    const [records, facts] = await Promise.all([listAppliedChecklists(actor.orgId, transactionId), latestAppliedExtraction(actor.orgId, transactionId)]);
    const tasks = new Map(deal.tasks.map((t) => [t.id, t]));
    const items: TransactItem[] = [];
    const removed: string[] = [];
    const changed = new Map<string, AppliedChecklist>();

    // Entries whose task is gone (deleted by a person) are forgotten; with replaceExisting, open ones in scope go.
    for (const r of records) {
      const keep: ChecklistEntry[] = [];
      for (const e of r.entries) {
        const task = tasks.get(e.taskId);
        if (!task) continue;
        if (input.replaceExisting && task.status === 'open' && sections.includes(e.section)) {
          // Only while still open: a task completed meanwhile stays (and the commit retries from a fresh read).
          const [del, ref] = taskDeletes(actor.orgId, task);
          items.push({ Delete: { ...del.Delete!, ConditionExpression: '#s = :open', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':open': 'open' } } }, ref);
          removed.push(task.id);
          continue;
        }
        keep.push(e);
      }
      if (keep.length !== r.entries.length) changed.set(r.templateId, { ...r, entries: keep });
    }
    const current = [...records.map((r) => changed.get(r.templateId) ?? r)];
    const existingKeys = new Set(current.flatMap((r) => r.entries.map((e) => e.key)));
    const { items: chosen, skipped } = selectItems(template, sections, facts, existingKeys);

    const keyDates = new Map(deal.keyDates.map((k) => [k.keyDateType, k.dateValue]));
    const created = chosen.map((i) =>
      newOpenTask(deal, actor, now, {
        id: randomUUID(),
        transactionId,
        title: i.title,
        description: i.description,
        dueDate: dueDateOf(i, keyDates),
        priority: i.priority,
        assigneeUserId: null,
        linkedMilestoneName: i.linkedKeyDate,
        dueOffsetDays: i.offsetDays,
      }),
    );
    for (const t of created) items.push(...taskCreateItems(actor, t, now));

    const own = current.find((r) => r.templateId === template.id);
    const newEntries = chosen.map((i, n) => ({ key: i.key, section: i.section, taskId: created[n].id }));
    if (own || newEntries.length) {
      changed.set(template.id, {
        transactionId,
        templateId: template.id,
        templateName: template.name,
        firstAppliedAt: own?.firstAppliedAt ?? now.toISOString(),
        lastAppliedAt: now.toISOString(),
        entries: [...(own?.entries ?? []), ...newEntries],
      });
    }
    for (const r of changed.values()) items.push(r.entries.length || r.templateId === template.id ? appliedChecklistPut(actor.orgId, r) : appliedChecklistDelete(actor.orgId, r));

    if (items.length + 1 > MAX_TRANSACT_ITEMS) {
      throw new InvalidInput({ scope: `this change needs ${items.length + 1} writes, more than one transaction holds (${MAX_TRANSACT_ITEMS}); apply fewer sections at a time` });
    }
    await transactWrite([touchTransaction(actor.orgId, deal, now, { expectedVersion: deal.version }), ...items], () => new StaleRead());
    for (const id of removed) await deleteTaskComments(actor.orgId, id);
    return { transactionId, templateId: template.id, templateName: template.name, sections, created, removedTaskIds: removed, skipped };
  }, () => new Conflict('The transaction kept changing while the checklist was applied; retry.'));
}

/** One line of the deal's checklist. */
export interface ChecklistLine {
  taskId: string;
  key: string;
  section: ChecklistSection;
  templateId: string;
  title: string;
  dueDate: string | null;
  linkedKeyDate: string | null;
  status: Task['status'];
  completedAt: string | null;
  overdue: boolean;
}

/** Counts of a set of lines. */
export interface ChecklistCounts {
  total: number;
  completed: number;
  open: number;
  overdue: number;
  /** 0–100, whole percent. */
  percentComplete: number;
  status: ChecklistStatus;
}

/** The deal's checklist with its aggregate status. */
export interface TransactionChecklist extends ChecklistCounts {
  transactionId: string;
  templates: { templateId: string; name: string; firstAppliedAt: string; lastAppliedAt: string }[];
  sections: ({ section: ChecklistSection } & ChecklistCounts)[];
  items: ChecklistLine[];
}

function counts(lines: ChecklistLine[]): ChecklistCounts {
  const completed = lines.filter((l) => l.status === 'completed').length;
  return {
    total: lines.length,
    completed,
    open: lines.length - completed,
    overdue: lines.filter((l) => l.overdue).length,
    percentComplete: lines.length ? Math.floor((completed * 100) / lines.length) : 0,
    status: checklistStatus(lines.length, completed),
  };
}

/**
 * The aggregate status of the deal's checklists: every task they made that still exists, by due date, with
 * counts overall and per section. A task is overdue when open and due before today (`now`'s UTC date).
 * @throws NotFound for a missing deal
 */
export async function getTransactionChecklist(orgId: string, transactionId: string, now: Date): Promise<TransactionChecklist> {
  const deal = await getDeal(orgId, transactionId);
  const records = await listAppliedChecklists(orgId, transactionId);
  const tasks = new Map(deal.tasks.map((t) => [t.id, t]));
  const today = dateOf(now);
  const lines: ChecklistLine[] = records.flatMap((r) =>
    r.entries.flatMap((e) => {
      const t = tasks.get(e.taskId);
      if (!t) return [];
      return [{ taskId: t.id, key: e.key, section: e.section, templateId: r.templateId, title: t.title, dueDate: t.dueDate, linkedKeyDate: t.linkedMilestoneName, status: t.status, completedAt: t.completedAt, overdue: t.status === 'open' && !!t.dueDate && t.dueDate < today }];
    }),
  );
  lines.sort((a, b) => (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') || a.title.localeCompare(b.title));
  const sectionNames = [...new Set(lines.map((l) => l.section))];
  return {
    transactionId,
    ...counts(lines),
    templates: records.map((r) => ({ templateId: r.templateId, name: r.templateName, firstAppliedAt: r.firstAppliedAt, lastAppliedAt: r.lastAppliedAt })),
    sections: sectionNames.map((section) => ({ section, ...counts(lines.filter((l) => l.section === section)) })),
    items: lines,
  };
}
