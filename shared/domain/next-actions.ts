/**
 * Ranking of the next-actions feed: open tasks and upcoming key dates in one list. Overdue tasks come
 * first (most overdue first), then everything by days until due; on the same day a key date (a contract
 * deadline) outranks a task, and a higher-priority task (lower number) outranks a lower one.
 */
import { dayNumber } from '#domain/calendar';

export interface NextAction {
  kind: 'task' | 'keyDate';
  transactionId: string;
  address: string;
  title: string;
  /** `YYYY-MM-DD`, or null for an undated task. */
  date: string | null;
  daysUntil: number | null;
  overdue: boolean;
  priority: number | null;
  taskId?: string;
  keyDateType?: string;
}

/** Sort key: [bucket, days, kind, priority]. Undated tasks sort last. */
function rankKey(a: NextAction): [number, number, number, number] {
  if (a.daysUntil === null) return [2, 0, 1, a.priority ?? 9];
  return [a.overdue ? 0 : 1, a.daysUntil, a.kind === 'keyDate' ? 0 : 1, a.priority ?? 9];
}

/** Ranks actions (see module doc). @param today `YYYY-MM-DD` */
export function rankNextActions(actions: Omit<NextAction, 'daysUntil' | 'overdue'>[], today: string, limit: number): NextAction[] {
  const t = dayNumber(today);
  return actions
    .map((a) => {
      const daysUntil = a.date ? dayNumber(a.date) - t : null;
      return { ...a, daysUntil, overdue: a.kind === 'task' && daysUntil !== null && daysUntil < 0 };
    })
    .filter((a) => a.kind === 'task' || (a.daysUntil !== null && a.daysUntil >= 0))
    .sort((x, y) => {
      const [a, b] = [rankKey(x), rankKey(y)];
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
      return 0;
    })
    .slice(0, limit);
}
