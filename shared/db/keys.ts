/**
 * Key builders of the single table. Every organization-owned partition key starts with `ORG#<orgId>`, so a
 * lookup with another organization's id finds nothing (tenant isolation by construction).
 */
export const orgPk = (orgId: string) => `ORG#${orgId}`;
export const txnPk = (orgId: string, transactionId: string) => `ORG#${orgId}#TXN#${transactionId}`;
export const taskPk = (orgId: string, taskId: string) => `ORG#${orgId}#TASK#${taskId}`;
export const apiKeyPk = (hash: string) => `APIKEY#${hash}`;
export const idempotencyPk = (orgId: string, keyHash: string) => `ORG#${orgId}#IDEM#${keyHash}`;
export const usagePk = (orgId: string, keyId: string) => `ORG#${orgId}#USAGE#${keyId}`;
export const eventPk = (orgId: string, eventId: string) => `ORG#${orgId}#EVENT#${eventId}`;
export const proposalPk = (orgId: string, proposalId: string) => `ORG#${orgId}#PROPOSAL#${proposalId}`;

/** OAuth 2.1 authorization-server items (shared/db/oauth.ts). Codes and tokens are keyed by their SHA-256. */
export const oauthPk = {
  client: (clientId: string) => `OAUTHCLIENT#${clientId}`,
  login: (sessionHash: string) => `OAUTHLOGIN#${sessionHash}`,
  code: (codeHash: string) => `OAUTHCODE#${codeHash}`,
  grant: (grantId: string) => `OAUTHGRANT#${grantId}`,
  refresh: (tokenHash: string) => `OAUTHREFRESH#${tokenHash}`,
};

/** GSI1 partitions (cross-deal lists). */
export const gsi1 = {
  proposals: (orgId: string) => `ORG#${orgId}#PROPOSALS`,
  transactions: (orgId: string) => `ORG#${orgId}#TXNS`,
  keyDates: (orgId: string) => `ORG#${orgId}#KEYDATES`,
  openTasks: (orgId: string) => `ORG#${orgId}#OPENTASKS`,
  apiKeys: (orgId: string) => `ORG#${orgId}#APIKEYS`,
  /** Every OAuth grant of one user to one client (refresh-token reuse revokes them all, RFC 9700 §4.14). */
  oauthGrants: (userId: string, clientId: string) => `OAUTHGRANTS#${userId}#${clientId}`,
  /** Organizations provisioned by one partner (shared/db/partners.ts). */
  partnerOrgs: (partnerId: string) => `PARTNER#${partnerId}#ORGS`,
};

/** GSI2 partitions. */
export const gsi2 = {
  transactionsByStatus: (orgId: string, status: string) => `ORG#${orgId}#TXNSTATUS#${status.toLowerCase()}`,
  /** Memberships of one email address across organizations (sign-in of the OAuth consent step). */
  userByEmail: (email: string) => `USEREMAIL#${email.trim().toLowerCase()}`,
};

/** Sort key of a timestamped child: ISO time first so the collection reads in time order. */
export const timeSk = (prefix: string, isoTime: string, id: string) => `${prefix}#${isoTime}#${id}`;
