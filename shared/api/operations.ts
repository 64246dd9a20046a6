/**
 * The operations manifest: every operation of `../shared/spec/api-v1.md`, once. API Gateway routes (CDK),
 * the local router, `GET /catalog`, scope checks and the coverage table all derive from this list.
 */
import type { HttpMethod, LambdaGroup, OperationSpec } from '#api/types';
import { routeKeyOf } from '#api/route-key';
import { metaOperations } from './manifest/meta.ts';
import { accountOperations } from './manifest/account.ts';
import { accountExtrasOperations } from './manifest/account-extras.ts';
import { transactionsOperations } from './manifest/transactions.ts';
import { transactionsExtrasOperations } from './manifest/transactions-extras.ts';
import { keyDatesOperations } from './manifest/key-dates.ts';
import { tasksOperations } from './manifest/tasks.ts';
import { messagingOperations } from './manifest/messaging.ts';
import { documentsOperations } from './manifest/documents.ts';
import { extractionsOperations } from './manifest/extractions.ts';
import { contactsOperations } from './manifest/contacts.ts';
import { disclosuresOperations } from './manifest/disclosures.ts';
import { proposalsOperations } from './manifest/proposals.ts';
import { templatesOperations } from './manifest/templates.ts';
import { webhooksOperations } from './manifest/webhooks.ts';
import { partnerOperations } from './manifest/partner.ts';

export const operations: readonly OperationSpec[] = [
  ...metaOperations,
  ...accountOperations,
  ...accountExtrasOperations,
  ...transactionsOperations,
  ...transactionsExtrasOperations,
  ...keyDatesOperations,
  ...tasksOperations,
  ...messagingOperations,
  ...documentsOperations,
  ...extractionsOperations,
  ...contactsOperations,
  ...disclosuresOperations,
  ...proposalsOperations,
  ...templatesOperations,
  ...webhooksOperations,
  ...partnerOperations,
];

export { routeKeyOf };

const byRouteKey = new Map(operations.map((op) => [routeKeyOf(op), op]));

/** The operation a route key names, or undefined. */
export function operationByRouteKey(routeKey: string): OperationSpec | undefined {
  return byRouteKey.get(routeKey);
}

/** Every Lambda group that has at least one operation. */
export const lambdaGroups: readonly LambdaGroup[] = [...new Set(operations.map((op) => op.group))];

/** Operations served by one group's function. */
export const operationsOfGroup = (group: LambdaGroup): OperationSpec[] =>
  operations.filter((op) => op.group === group);

interface CompiledRoute {
  op: OperationSpec;
  method: HttpMethod;
  regex: RegExp;
  names: string[];
  literalSegments: number;
}

const compiled: CompiledRoute[] = operations
  .map((op) => {
    const names: string[] = [];
    const segments = op.path.split('/');
    const pattern = segments
      .map((s) => {
        const m = /^\{(\w+)\}$/.exec(s);
        if (!m) return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(m[1]);
        return '([^/]+)';
      })
      .join('/');
    return {
      op,
      method: op.method,
      regex: new RegExp(`^${pattern}$`),
      names,
      literalSegments: segments.filter((s) => !s.startsWith('{')).length,
    };
  })
  // API Gateway prefers the most specific route: literal segments beat {params}.
  .sort((a, b) => b.literalSegments - a.literalSegments);

/** Percent-decodes a path segment; a malformed escape (`%E0%A4%A`) is kept as written for validation to refuse. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Matches a concrete request path the way API Gateway's HTTP API does (greatest number of literal
 * segments wins). Returns the operation and its decoded path parameters, or undefined (→ `$default`).
 */
export function matchRoute(
  method: string,
  path: string,
): { op: OperationSpec; pathParameters: Record<string, string> } | undefined {
  for (const route of compiled) {
    if (route.method !== method) continue;
    const m = route.regex.exec(path);
    if (!m) continue;
    const pathParameters: Record<string, string> = {};
    route.names.forEach((name, i) => {
      pathParameters[name] = decodeSegment(m[i + 1]);
    });
    return { op: route.op, pathParameters };
  }
  return undefined;
}
