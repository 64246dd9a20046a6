/**
 * What the stack sets is what the code reads: every environment variable the synthesized template gives a service
 * function (one carrying `POWERTOOLS_SERVICE_NAME`, lib/service-function.ts) is one the configuration module
 * reads (shared/ports/config.ts `CONFIG_VARIABLES`), or Node's, Lambda's or Powertools' own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '#ports/config';
import { synthesizeDefault, type Synthesized } from './synth.ts';

/** Read by Node.js, the Lambda runtime or Powertools themselves, never by our code. */
const RUNTIME_OWN = /^(NODE_OPTIONS|AWS_[A-Z_]+|POWERTOOLS_[A-Z_]+)$/;
const SCHEDULE_TARGET = /^SCHEDULE_TARGET_[A-Z0-9_]+_ARN$/;

let s: Synthesized;
beforeAll(async () => {
  s = await synthesizeDefault();
});
afterAll(() => s?.cleanup());

/** Variable names of every service function in the main stack and its nested stacks. */
function serviceFunctionVariables(): Map<string, string[]> {
  const functions = [
    ...s.ofType('AWS::Lambda::Function'),
    ...s.nested(s.stack.httpApi.routesStack).ofType('AWS::Lambda::Function'),
    ...(s.stack.partnerApi ? s.nested(s.stack.partnerApi).ofType('AWS::Lambda::Function') : []),
  ];
  const out = new Map<string, string[]>();
  for (const [id, fn] of functions) {
    const vars = Object.keys(fn.Properties.Environment?.Variables ?? {});
    if (vars.includes('POWERTOOLS_SERVICE_NAME')) out.set(id, vars);
  }
  return out;
}

describe('function environment', () => {
  it('sets only variables the configuration module reads', () => {
    const functions = serviceFunctionVariables();
    expect(functions.size).toBeGreaterThan(5);
    const known = new Set<string>(CONFIG_VARIABLES);
    const unknown = [...functions].flatMap(([id, vars]) => vars.filter((v) => !known.has(v) && !RUNTIME_OWN.test(v) && !SCHEDULE_TARGET.test(v)).map((v) => `${id}: ${v}`));
    expect(unknown).toEqual([]);
  });

  it('sets the required storage and pipeline variables on some function', () => {
    const set = new Set([...serviceFunctionVariables().values()].flat());
    for (const v of ['TABLE_NAME', 'DOCUMENTS_BUCKET', 'WEBHOOK_QUEUE_URL', 'EXTRACTION_STATE_MACHINE_ARN', 'MAIL_FROM_ADDRESS', 'SCHEDULE_GROUP']) expect(set.has(v), v).toBe(true);
  });
});
