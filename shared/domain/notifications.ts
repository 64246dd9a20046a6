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

/** `s` unless empty. */
const nonEmpty = (s: string | null | undefined): string | null => s || null;

/** Purpose of an intake form in words (`buyer_intake` → `buyer intake`). */
const formWords = (purpose: string): string => (purpose || 'intake').replace(/_/g, ' ');

/** The notification `e` gives rise to, or undefined for an event that notifies nobody. */
export function notificationFor(e: EventEnvelope): NotificationDraft | undefined {
  switch (e.eventType) {
    case 'form.submission_received':
      return { type: e.eventType, title: 'Intake form submitted', body: `A client submitted the ${formWords(e.data.formPurpose)} form.`, transactionId: e.data.transactionId, to: 'all' };
    case 'disclosure.recipient_viewed':
      return { type: e.eventType, title: 'Disclosure viewed', body: `${nonEmpty(e.data.email) ?? 'A recipient'} opened the disclosure package.`, transactionId: e.data.transactionId, to: 'all' };
    case 'task.created':
    case 'task.assigned': {
      const { assigneeUserId: assignee, title, dueDate, transactionId } = e.data;
      if (!assignee || assignee === e.userId) return undefined;
      return { type: 'task.assigned', title: 'Task assigned to you', body: `${nonEmpty(title) ?? 'A task'}${dueDate ? ` (due ${dueDate.slice(0, 10)})` : ''}`, transactionId, to: [assignee] };
    }
    case 'message.received': {
      const { channel, subject, fromName, from, transactionId } = e.data;
      const by = channel === 'sms' ? 'text' : 'email';
      return { type: e.eventType, title: `Reply by ${by}`, body: `${nonEmpty(fromName) ?? nonEmpty(from) ?? 'A party'} replied${subject ? `: ${subject}` : '.'}`, transactionId, to: 'all' };
    }
    default:
      return undefined;
  }
}
