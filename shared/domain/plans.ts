/**
 * Plans of organizations provisioned by a partner (spec "Partner organizations": entitlements are plan, seats and the
 * AI fair-use pool). The spec shows no plan names or limits; these are this service's own (docs/oauth-and-partners.md).
 */
export interface Plan {
  id: string;
  /** Members an organization may have, owner included. */
  seats: number;
  /** AI fair-use pool: AI generations per calendar month (UTC) for the whole organization. */
  aiMonthlyPool: number;
}

export const PLANS: Record<string, Plan> = {
  standard: { id: 'standard', seats: 10, aiMonthlyPool: 500 },
};

/** Every provisioned organization starts on this plan. */
export const DEFAULT_PLAN = PLANS.standard;

/** The plan of an organization item's `plan` attribute (unknown or absent → the default). */
export const planOf = (id: string | undefined): Plan => (id && PLANS[id]) || DEFAULT_PLAN;

/** The AI pool's period containing `now`: the calendar month (UTC). @returns ISO start (inclusive) and end (exclusive) */
export function poolPeriod(now: Date): { start: string; end: string; key: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start: start.toISOString(), end: end.toISOString(), key: start.toISOString().slice(0, 7) };
}
