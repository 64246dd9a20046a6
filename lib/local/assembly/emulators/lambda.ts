/**
 * Lambda stand-in for function-to-function calls (the reports API invoking the report workers,
 * shared/ports/report-builder.ts): `Invoke` (`POST /2015-03-31/functions/<name or ARN>/invocations`) with the
 * `RequestResponse` type runs the named function of the assembly and answers its result as Lambda does: 200 with
 * the payload, or 200 with `X-Amz-Function-Error: Unhandled` and `{errorType, errorMessage}` when it threw; a
 * function the assembly lacks is 404 `ResourceNotFoundException`. Other invocation types and actions are refused.
 */
import type { Backend, GatewayResponse } from '../aws-gateway.ts';
import { FunctionInvocationError } from '../function-pool.ts';

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/** @param invoke runs the function `nameOrArn` (qualified or not) with `event`; throws plain Error for an unknown function */
export function lambdaEmulator(invoke: (nameOrArn: string, event: unknown) => Promise<unknown>): Backend {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): GatewayResponse => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return async (req) => {
    const m = INVOKE_PATH.exec(req.url.pathname);
    const type = String(req.headers['x-amz-invocation-type'] ?? 'RequestResponse');
    if (req.method !== 'POST' || !m || type !== 'RequestResponse') {
      return json(400, { Type: 'User', message: `${req.method} ${req.url.pathname} (${type}) is not emulated` }, { 'x-amzn-errortype': 'InvalidRequestContentException' });
    }
    const event: unknown = req.body.length ? JSON.parse(req.body.toString('utf8')) : {};
    try {
      return json(200, (await invoke(decodeURIComponent(m[1]), event)) ?? null);
    } catch (err) {
      if (err instanceof FunctionInvocationError) return json(200, { errorType: err.errorType, errorMessage: err.message }, { 'x-amz-function-error': 'Unhandled' });
      return json(404, { Type: 'User', message: (err as Error).message }, { 'x-amzn-errortype': 'ResourceNotFoundException' });
    }
  };
}
