/**
 * Transaction status vocabulary (per organization; spec "Transaction") and the status cascade: what
 * entering a status does to a deal (creates tasks, sets or shifts key dates). Pure rules, no I/O.
 */
import { addDays } from '#domain/calendar';
import { dict } from '#domain/dict';

/** `closed` statuses emit `transaction.closed`; `cancelled` and `closed` end a deal. */
export type StatusCategory = 'prospect' | 'active' | 'pending' | 'closed' | 'cancelled';

export type CascadeAction =
  /** A task due `offsetDays` from key date `linkedKeyDate` when the deal has it, else `dueInDays` from today. */
  | { type: 'createTask'; title: string; description?: string; priority?: number; linkedKeyDate?: string; offsetDays?: number; dueInDays?: number }
  /** Moves the named key dates (those the deal has) by `days`. */
  | { type: 'shiftKeyDates'; keyDateTypes: string[]; days: number; note: string };

export interface StatusDefinition {
  name: string;
  category: StatusCategory;
  description: string;
  cascade: CascadeAction[];
}

/** The vocabulary a new organization starts with, in display order. */
export const DEFAULT_STATUS_VOCABULARY: StatusDefinition[] = [
  { name: 'Prospect', category: 'prospect', description: 'Client engaged; no contract yet.', cascade: [] },
  { name: 'Active Listing', category: 'active', description: 'Listed and on the market.', cascade: [] },
  {
    name: 'Under Contract',
    category: 'pending',
    description: 'Executed contract; option period and contingencies running.',
    cascade: [
      { type: 'createTask', title: 'Confirm earnest money and option fee delivered to escrow', priority: 1, dueInDays: 3 },
      { type: 'createTask', title: 'Order title commitment', priority: 2, dueInDays: 2 },
      { type: 'createTask', title: 'Schedule home inspection', priority: 1, linkedKeyDate: 'InspectionDeadline', offsetDays: -3, dueInDays: 5 },
    ],
  },
  {
    name: 'Closing Extended',
    category: 'pending',
    description: 'Parties agreed to move closing by one week.',
    cascade: [
      { type: 'shiftKeyDates', keyDateTypes: ['ClosingDate'], days: 7, note: 'Closing extended by 7 days (status cascade: Closing Extended)' },
      { type: 'createTask', title: 'Get the closing-extension amendment signed by all parties', priority: 1, dueInDays: 1 },
    ],
  },
  {
    name: 'Clear to Close',
    category: 'pending',
    description: 'Lender and title have cleared the file.',
    cascade: [
      { type: 'createTask', title: 'Confirm closing appointment with escrow officer', priority: 1, linkedKeyDate: 'ClosingDate', offsetDays: -2, dueInDays: 2 },
      { type: 'createTask', title: 'Schedule final walkthrough', priority: 2, linkedKeyDate: 'ClosingDate', offsetDays: -1, dueInDays: 3 },
    ],
  },
  {
    name: 'Closed',
    category: 'closed',
    description: 'Funded and recorded.',
    cascade: [{ type: 'createTask', title: 'Send closing documents to client and archive the file', priority: 3, dueInDays: 7 }],
  },
  {
    name: 'Cancelled',
    category: 'cancelled',
    description: 'Contract terminated.',
    cascade: [{ type: 'createTask', title: 'Release of earnest money signed by both parties', priority: 1, dueInDays: 3 }],
  },
];

/** Finds a status by name, case-insensitively; undefined when it is not in the vocabulary. */
export function findStatus(vocabulary: StatusDefinition[], name: string): StatusDefinition | undefined {
  const wanted = name.trim().toLowerCase();
  return vocabulary.find((s) => s.name.toLowerCase() === wanted);
}

export interface PlannedTask {
  title: string;
  description?: string;
  priority?: number;
  dueDate: string;
  linkedMilestoneName?: string;
  dueOffsetDays?: number;
}

export interface PlannedKeyDateShift {
  keyDateType: string;
  from: string;
  to: string;
  note: string;
}

/**
 * The effects of entering `status`, given the deal's current key dates.
 * @param keyDates keyDateType → `YYYY-MM-DD`
 * @param today `YYYY-MM-DD`
 */
export function planCascade(status: StatusDefinition, keyDates: Record<string, string>, today: string) {
  const tasks: PlannedTask[] = [];
  const shifts: PlannedKeyDateShift[] = [];
  // Prototype-less: a key-date type such as `toString` (a valid token) must not find an inherited member.
  const dates = Object.assign(dict<string>(), keyDates);
  for (const action of status.cascade) {
    if (action.type === 'shiftKeyDates') {
      for (const type of action.keyDateTypes) {
        if (!dates[type]) continue;
        const to = addDays(dates[type], action.days);
        shifts.push({ keyDateType: type, from: dates[type], to, note: action.note });
        dates[type] = to;
      }
    }
  }
  for (const action of status.cascade) {
    if (action.type !== 'createTask') continue;
    const linked = action.linkedKeyDate && dates[action.linkedKeyDate];
    tasks.push({
      title: action.title,
      description: action.description,
      priority: action.priority,
      dueDate: linked ? addDays(linked, action.offsetDays ?? 0) : addDays(today, action.dueInDays ?? 0),
      ...(linked ? { linkedMilestoneName: action.linkedKeyDate, dueOffsetDays: action.offsetDays ?? 0 } : {}),
    });
  }
  return { tasks, shifts, closes: status.category === 'closed' };
}
