/**
 * `GET /api/v1/health` (`OrgHealth`): verifies the key (by reaching this handler) and really probes the
 * table with a strongly consistent read of the organization item.
 */
import { defineOperation } from '#api/operation';
import { getOrganization } from '#db/orgs';
import { OrgHealth } from '#api/responses/meta';

export const API_VERSION = 'v1';

export default defineOperation({
  operationId: 'getHealth',
  method: 'GET',
  path: '/api/v1/health',
  access: 'read',
  summary: 'Verifies the key and probes the table.',
  response: () => OrgHealth,
  handler: async (_input, { principal }) => {
    let databaseReachable = true;
    let databaseError: string | null = null;
    try {
      if (!(await getOrganization(principal.orgId, true))) databaseError = 'organization record missing';
    } catch (err) {
      databaseReachable = false;
      databaseError = err instanceof Error ? err.name : 'unknown error';
    }
    return {
      body: {
        ok: databaseReachable && databaseError === null,
        organizationId: principal.orgId,
        scopes: principal.scopes,
        databaseReachable,
        databaseError,
        apiVersion: API_VERSION,
      },
    };
  },
});
