/**
 * The partner tier's use cases (spec "Partner organizations"): provision an organization with its owner (invited by
 * email), read it, its entitlements and an activity summary, invite and remove seats. A partner reads only counts
 * of an organization's work, never deal data; an organization it did not provision is `NotFound` (404).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { gsi1 } from '#db/keys';
import { addUser, createOrganization, getUser, listUsers, removeUser, type OrgUser } from '#db/orgs';
import { aiPoolUsed, getPartnerOrg, type PartnerOrganization } from '#db/partners';
import { queryAll } from '#db/transactions';
import { planOf, poolPeriod } from '#domain/plans';
import { InvalidInput, NotFound } from '#domain/errors';
import type { TransactItem } from '#db/transact';
import { queuedServiceEmailItems } from '#use-cases/messaging/queue-service-email';

/** The organization as the partner sees it. */
export async function partnerOrgView(org: PartnerOrganization) {
  const owner = await getUser(org.orgId, org.ownerUserId);
  return { orgId: org.orgId, name: org.name, plan: org.plan, createdAt: org.createdAt, owner: owner ?? null };
}

/** @throws NotFound unless `partnerId` provisioned `orgId` */
export async function ownedOrg(partnerId: string, orgId: string): Promise<PartnerOrganization> {
  const org = await getPartnerOrg(partnerId, orgId);
  if (!org) throw new NotFound('Organization');
  return org;
}

/**
 * The invitation of `to` (queued for the send worker, in the transaction that adds the member), from the service's
 * sender with the workspace's name. Its outcome is logged and counted (`ServiceEmailsFailed`); the member exists either way.
 */
function invitationItems(orgId: string, to: OrgUser, orgName: string, isOwner: boolean, now: Date): TransactItem[] {
  const greeting = to.firstName ? `Hi ${to.firstName},` : 'Hello,';
  const text = `${greeting}\n\nYou have been ${isOwner ? 'made the owner of' : 'given a seat in'} the workspace "${orgName}" on the transaction-coordination service. Sign in with this email address (${to.email}); a one-time code is emailed to you each time.\n`;
  // The partner is not a member of the organization: the email is the service's (no userId).
  return queuedServiceEmailItems({ orgId, userId: null }, 'partner_invitation', { to: to.email, fromName: orgName, subject: `You are invited to ${orgName}`, text }, null, now).items;
}

/** Provisions an organization owned by `owner`; the owner's invitation email is queued with it. */
export async function provisionOrg(partnerId: string, input: { name: string; owner: { email: string; firstName: string; lastName: string } }, now = new Date()) {
  const email = input.owner.email.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new InvalidInput({ 'owner.email': 'must be an email address' });
  const created = await createOrganization({ name: input.name, ownerEmail: email, ownerFirstName: input.owner.firstName || undefined, ownerLastName: input.owner.lastName || undefined, partnerId }, (c) =>
    invitationItems(c.orgId, c.owner, input.name, true, now),
  );
  return partnerOrgView({ orgId: created.orgId, name: input.name, ownerUserId: created.ownerUserId, createdAt: created.createdAt, partnerId, plan: 'standard' });
}

/** Plan, seats and the AI pool state. */
export async function entitlements(org: PartnerOrganization, now: Date) {
  const plan = planOf(org.plan);
  const period = poolPeriod(now);
  const [members, used] = await Promise.all([listUsers(org.orgId), aiPoolUsed(org.orgId, period.key)]);
  const remaining = Math.max(0, plan.aiMonthlyPool - used);
  return {
    orgId: org.orgId,
    plan: plan.id,
    seats: { limit: plan.seats, used: members.length, available: Math.max(0, plan.seats - members.length) },
    aiPool: { periodStart: period.start, periodEnd: period.end, limit: plan.aiMonthlyPool, used, remaining, state: remaining > 0 ? ('available' as const) : ('exhausted' as const) },
  };
}

/** Counts only: active deals, open tasks overdue / due within 7 days, the last deal change. */
export async function activitySummary(org: PartnerOrganization, now: Date) {
  const deals = await queryAll({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': gsi1.transactions(org.orgId) }, ProjectionExpression: 'closedAt, updatedAt' });
  const today = now.toISOString().slice(0, 10);
  const weekOut = new Date(now.getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
  const tasks = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK <= :end',
    ExpressionAttributeValues: { ':pk': gsi1.openTasks(org.orgId), ':end': `${weekOut}~` },
    ProjectionExpression: 'dueDate',
  });
  const due = tasks.map((t) => String(t.dueDate ?? '').slice(0, 10)).filter(Boolean);
  const last = await db().send(new QueryCommand({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': gsi1.transactions(org.orgId) }, ScanIndexForward: false, Limit: 1, ProjectionExpression: 'updatedAt' }));
  return {
    orgId: org.orgId,
    activeDeals: deals.filter((d) => !d.closedAt).length,
    tasksDue: { overdue: due.filter((d) => d < today).length, next7Days: due.filter((d) => d >= today && d <= weekOut).length },
    lastActivityAt: (last.Items?.[0]?.updatedAt as string | undefined) ?? null,
  };
}

/** Seat roles a partner may give (the owner is set at provisioning). */
export const SEAT_ROLES = ['admin', 'agent', 'coordinator'] as const;

/** Invites a seat: a new member, with their invitation email queued. @throws InvalidInput for a bad email or role, a member already, or no free seat */
export async function inviteSeat(org: PartnerOrganization, input: { email: string; firstName: string | null; lastName: string | null; role: string | null }, now = new Date()) {
  const email = input.email.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new InvalidInput({ email: 'must be an email address' });
  const role = (input.role ?? 'agent').toLowerCase();
  if (!(SEAT_ROLES as readonly string[]).includes(role)) throw new InvalidInput({ role: `must be one of ${SEAT_ROLES.join(', ')}` });
  const members = await listUsers(org.orgId);
  if (members.some((m) => m.email === email)) throw new InvalidInput({ email: 'is already a member of this organization' });
  const plan = planOf(org.plan);
  if (members.length >= plan.seats) throw new InvalidInput({ email: `no free seat: the ${plan.id} plan has ${plan.seats}` });
  return addUser(org.orgId, { email, firstName: input.firstName || null, lastName: input.lastName || null, role: role as OrgUser['role'] }, (u) => invitationItems(org.orgId, u, org.name, false, now));
}

/** Removes a seat; the member's OAuth tokens stop at once (membership is re-read). @throws NotFound; InvalidInput for the owner */
export async function removeSeat(org: PartnerOrganization, userId: string): Promise<void> {
  if (userId === org.ownerUserId) throw new InvalidInput({ userId: 'the owner cannot be removed' });
  if (!(await removeUser(org.orgId, userId))) throw new NotFound('User');
}
