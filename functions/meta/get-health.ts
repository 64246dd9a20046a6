/**
 * `GET /api/v1/health` (`OrgHealth`): verifies the key (by reaching this handler) and really probes the
 * table with a strongly consistent read of the organization item.
 */
import type { OperationHandler } from '#http/context';
import { getOrganization } from '#db/orgs';

export const API_VERSION = 'v1';

export const getHealth: OperationHandler = async (_input, { principal }) => {
  let databaseReachable = true;
  let databaseError: string | null = null;
  try {
    if (!(await getOrganization(principal.orgId, true))) databaseError = 'organization record missing';
  } catch (err) {
    databaseReachable = false;
    databaseError = err instanceof Error ? err.name : 'unknown error';
  }
  return {
    body: { ok: databaseReachable && databaseError === null, organizationId: principal.orgId, scopes: principal.scopes, databaseReachable, databaseError, apiVersion: API_VERSION },
  };
};
