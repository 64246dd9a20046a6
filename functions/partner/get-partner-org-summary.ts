/** `GET /api/v1/orgs/{orgId}/summary`: the organization's active deals, tasks due and last activity. */
import { plannedOperation } from '#api/operation';
import { orgPath } from '#api/schemas/partner';

export default plannedOperation({
  operationId: 'getPartnerOrgSummary',
  method: 'GET',
  path: '/api/v1/orgs/{orgId}/summary',
  access: 'partner',
  summary: "The organization's active deals, tasks due and last activity.",
  schemas: () => ({ path: orgPath() }),
  planned: 'issue #10 (partner tier)',
});
