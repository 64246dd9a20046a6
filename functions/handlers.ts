/**
 * Every group's handler module, by group, for the local runtime and tests (CDK bundles each
 * `functions/<group>/handler.ts` separately). Loaded lazily so a process imports only what it serves.
 */
import type { LambdaGroup, OperationSpec } from '#api/types';
import type { GroupHandler } from '#http/pipeline';

type Module = { handler: GroupHandler; manifest: readonly OperationSpec[]; operations: Record<string, unknown> };

export const groupModules: Record<LambdaGroup, () => Promise<Module>> = {
  meta: () => import('./meta/handler.ts'),
  transactions: () => import('./transactions/handler.ts'),
  'key-dates': () => import('./key-dates/handler.ts'),
  tasks: () => import('./tasks/handler.ts'),
  documents: () => import('./documents/handler.ts'),
  extractions: () => import('./extractions/handler.ts'),
  messaging: () => import('./messaging/handler.ts'),
  contacts: () => import('./contacts/handler.ts'),
  disclosures: () => import('./disclosures/handler.ts'),
  proposals: () => import('./proposals/handler.ts'),
  templates: () => import('./templates/handler.ts'),
  webhooks: () => import('./webhooks/handler.ts'),
  account: () => import('./account/handler.ts'),
  partner: () => import('./partner/handler.ts'),
};
