/** Manifest: the implemented part of spec "Organization (own workspace)": statuses and team members. */
import type { OperationSpec } from '#api/types';

export const accountOperations: OperationSpec[] = [
  {
    operationId: 'listTransactionStatuses',
    method: 'GET',
    path: '/api/v1/transaction-statuses',
    access: 'read',
    idempotent: false,
    group: 'account',
    summary: "The organization's selectable transaction statuses, in display order.",
    schemas: () => ({}),
    availability: { status: 'implemented' },
  },
  {
    operationId: 'listOrgUsers',
    method: 'GET',
    path: '/api/v1/org/users',
    access: 'read',
    idempotent: false,
    group: 'account',
    summary: 'Assignable team members of the organization.',
    schemas: () => ({}),
    availability: { status: 'implemented' },
  },
];
