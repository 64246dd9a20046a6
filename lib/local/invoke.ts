/**
 * How the local runtime invokes a handler. Locally one process serves many invocations at once (API requests,
 * poller batches, extraction steps), as Lambda Managed Instances do; Powertools keeps each invocation's log keys,
 * metrics and batch state apart when `AWS_LAMBDA_MAX_CONCURRENCY` is set and `globalThis.awslambda.InvokeStore`
 * holds a per-invocation store, which the Lambda runtime provides there. This module provides the same:
 * an AsyncLocalStorage store per invocation. Code outside any invocation (startup, a test calling a handler
 * directly) shares one process-wide store, which is how Powertools behaves without concurrency. The variable is set
 * in this process's environment, so a child process that loads Powertools without this store must not inherit it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';
import { localContext } from '#lib/local/api-event';

type Store = Record<PropertyKey, unknown>;

const REQUEST_ID = Symbol.for('_AWS_LAMBDA_REQUEST_ID');
const als = new AsyncLocalStorage<Store>();
const outside: Store = {};
const current = (): Store => als.getStore() ?? outside;

/** The subset of `@aws/lambda-invoke-store`'s store that Powertools calls. */
const invokeStore = {
  getContext: current,
  hasContext: (): boolean => als.getStore() !== undefined,
  get: (key: PropertyKey): unknown => current()[key],
  set: (key: PropertyKey, value: unknown): void => {
    current()[key] = value;
  },
  run: <T>(context: Store, fn: () => T): T => als.run(context, fn),
  getRequestId: (): string => String(current()[REQUEST_ID] ?? '-'),
  getXRayTraceId: (): string | undefined => undefined,
  getTenantId: (): string | undefined => undefined,
};

let installed = false;

/** Installs the store (once per process). */
function install(): void {
  if (installed) return;
  const g = globalThis as { awslambda?: { InvokeStore?: unknown } };
  g.awslambda ??= {};
  g.awslambda.InvokeStore = invokeStore;
  process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '64';
  installed = true;
}

/**
 * Lambda's longest timeout: what a local worker invocation gets. The local runtime does not enforce the deployed
 * timeouts (its OCR stand-in does in one step what Textract does asynchronously, over many steps).
 */
export const LOCAL_WORKER_TIMEOUT_MS = 15 * 60_000;

/**
 * Runs one invocation of `handler` in its own invoke context.
 * @param functionName the function the context names (e.g. `webhook-delivery`)
 * @param requestId the invocation's request id (default a new UUID); the API passes API Gateway's
 * @param timeoutMs the invocation's time limit (default `LOCAL_WORKER_TIMEOUT_MS`; the API passes 29 s)
 * @returns what the handler returns; rejects with what it throws (middy's `TimeoutError` past the limit)
 */
export function invokeLocally<E, R>(
  handler: (event: E, context: Context) => Promise<R>,
  event: E,
  functionName: string,
  requestId?: string,
  timeoutMs = LOCAL_WORKER_TIMEOUT_MS,
): Promise<R> {
  install();
  const context = localContext(functionName, requestId, timeoutMs);
  return als.run({ [REQUEST_ID]: context.awsRequestId }, () => handler(event, context));
}
