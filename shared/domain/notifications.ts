/**
 * Which domain events become notifications for the team, for whom, and in what words. Derived in one place from the
 * outbox (functions/webhook-fanout), so every producer feeds them: a form submitted, a disclosure viewed and an
 * inbound reply on a deal notify every member; a task created with an assignee, or assigned later, notifies the
 * assignee (unless they did it themselves).
 */
import type { EventEnvelope } from '#events/outbox';

/** A notification to write, before it has an id or recipients' copies. */
export interface NotificationDraft {
  type: string;
  title: string;
  body: string;
  transactionId: string | null;
  /** `all` members, or these user ids. */
  to: 'all' | string[];
}

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** The notification `e` gives rise to, or undefined for an event that notifies nobody. */
export function notificationFor(e: EventEnvelope): NotificationDraft | undefined {
  const d = e.data;
  const transactionId = str(d.transactionId);
  switch (e.eventType) {
    case 'form.submission_received':
      return { type: e.eventType, title: 'Intake form submitted', body: `A client submitted the ${String(d.formPurpose ?? 'intake').replace(/_/g, ' ')} form.`, transactionId, to: 'all' };
    case 'disclosure.recipient_viewed':
      return { type: e.eventType, title: 'Disclosure viewed', body: `${str(d.email) ?? 'A recipient'} opened the disclosure package.`, transactionId, to: 'all' };
    case 'task.created':
    case 'task.assigned': {
      const assignee = str(d.assigneeUserId);
      if (!assignee || assignee === e.userId) return undefined;
      return { type: 'task.assigned', title: 'Task assigned to you', body: `${str(d.title) ?? 'A task'}${str(d.dueDate) ? ` (due ${String(d.dueDate).slice(0, 10)})` : ''}`, transactionId, to: [assignee] };
    }
    case 'message.received': {
      const by = d.channel === 'sms' ? 'text' : 'email';
      const subject = str(d.subject);
      return { type: e.eventType, title: `Reply by ${by}`, body: `${str(d.fromName) ?? str(d.from) ?? 'A party'} replied${subject ? `: ${subject}` : '.'}`, transactionId, to: 'all' };
    }
    default:
      return undefined;
  }
}
