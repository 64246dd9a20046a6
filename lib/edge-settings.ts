/**
 * What the edge does before a function runs, shared by the HTTP API (lib/http-api.ts) and the local server
 * (lib/local/http-server.ts): CORS for browser clients, and per-route throttling of the routes that cost money
 * or reach people. CDK-free.
 */
import type { RegisteredOperation } from '#api/operation';

/**
 * CORS for browser clients of `/api/v1` (an integrator's web app calling with a bearer token). Credentials are
 * headers, never cookies, so `*` is safe as the default origin and `allowCredentials` stays off. Headers a
 * client must read are exposed: `Retry-After` (429) and `Idempotency-Replayed`.
 */
export const CORS_POLICY = {
  allowHeaders: ['authorization', 'content-type', 'idempotency-key', 'if-match'],
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  exposeHeaders: ['retry-after', 'idempotency-replayed'],
  /** How long a browser may cache a preflight answer, seconds. */
  maxAgeSeconds: 600,
} as const;

/**
 * The allowed origins from the `corsAllowOrigins` context value: comma-separated `https://…` origins, or `*`.
 * @param value the context value (undefined → `['*']`)
 * @throws Error (at synth) on an origin that is not `*` or a bare `http(s)://host[:port]`
 */
export function corsOriginsOf(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return ['*'];
  const origins = String(value).split(',').map((o) => o.trim()).filter(Boolean);
  for (const o of origins) {
    if (o !== '*' && !/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i.test(o)) {
      throw new Error(`corsAllowOrigins: "${o}" is not an origin (scheme://host[:port], no path) or *`);
    }
  }
  return origins;
}

/** A token bucket: steady requests per second and burst capacity (API Gateway throttling). */
export interface RouteThrottle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** The stage-wide bucket every route shares unless it has its own (requests/second, burst). */
export const STAGE_THROTTLE: RouteThrottle = { rateLimit: 100, burstLimit: 200 };

/**
 * Route buckets by what a call costs. Per-credential limits (spec "Limits") stay in the Lambda; these cap the
 * whole deployment, so one runaway integration cannot run up Textract, SES or SMS bills or a sender reputation.
 * - `outbound`: sends mail or texts (SES and SMS are paid per message; bursts hurt deliverability).
 * - `documents`: uploads, extraction starts, deletes of stored files (S3 + Textract per page).
 * - `reports`: a read that builds a stored report (each call invokes one or two report workers for up to 25 s:
 *   Lambda time and concurrency, lib/report-builder.ts).
 * - `write`: any other draft/actions operation.
 * Other reads keep the stage bucket.
 */
export const ROUTE_THROTTLES = {
  outbound: { rateLimit: 10, burstLimit: 20 },
  documents: { rateLimit: 10, burstLimit: 20 },
  reports: { rateLimit: 5, burstLimit: 10 },
  write: { rateLimit: 50, burstLimit: 100 },
} as const satisfies Record<string, RouteThrottle>;

/**
 * The bucket of one operation's route, from its capabilities and method.
 * @returns undefined for a read that builds nothing (the stage bucket applies)
 */
export function routeThrottleOf(op: Pick<RegisteredOperation, 'method' | 'uses'>): RouteThrottle | undefined {
  const uses = op.uses ?? [];
  if (uses.includes('mail:send') || uses.includes('sms:send') || uses.includes('messages:queue')) return ROUTE_THROTTLES.outbound;
  if (uses.includes('extraction:start') || (uses.includes('documents:write') && op.method !== 'GET')) return ROUTE_THROTTLES.documents;
  if (uses.includes('reports:build')) return ROUTE_THROTTLES.reports;
  if (op.method !== 'GET') return ROUTE_THROTTLES.write;
  return undefined;
}
