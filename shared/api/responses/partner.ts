/**
 * Response schemas of the partner operations (spec "Partner organizations"; fields "not shown", so this service's
 * own, docs/oauth-and-partners.md "Partner tier"). None carries deal data.
 */
import * as z from '#api/zod';
import { id, nullableString, resource, timestamp } from '#api/responses/common';

const member = () => z.object({ userId: id(), email: z.string(), firstName: nullableString(), lastName: nullableString(), role: z.enum(['owner', 'admin', 'agent', 'coordinator']), createdAt: timestamp() });

export const PartnerOrgMember = resource('PartnerOrgMember', 'A seat of a provisioned organization.', member());

export const PartnerOrg = resource(
  'PartnerOrg',
  'An organization provisioned by the calling partner: name, plan, owner.',
  z.object({ orgId: z.string(), name: z.string(), plan: z.string(), createdAt: timestamp(), owner: z.nullable(member()) }),
);

export const PartnerOrgPage = z.object({ data: z.array(PartnerOrg), limit: z.int(), offset: z.int(), hasMore: z.boolean() });

export const PartnerOrgEntitlements = resource(
  'PartnerOrgEntitlements',
  "Plan, seats (limit, used, available) and the AI fair-use pool's state for the current calendar month (UTC).",
  z.object({
    orgId: z.string(),
    plan: z.string(),
    seats: z.object({ limit: z.int(), used: z.int(), available: z.int() }),
    aiPool: z.object({ periodStart: timestamp(), periodEnd: timestamp(), limit: z.int(), used: z.int(), remaining: z.int(), state: z.enum(['available', 'exhausted']) }),
  }),
);

export const PartnerOrgSummary = resource(
  'PartnerOrgSummary',
  'Activity counts only: active (not closed) deals, open tasks overdue or due within 7 days, and the last time a deal changed.',
  z.object({ orgId: z.string(), activeDeals: z.int(), tasksDue: z.object({ overdue: z.int(), next7Days: z.int() }), lastActivityAt: z.nullable(timestamp()) }),
);
