/**
 * Parses the JSON body and validates path, query and body: first the generic check every value passes
 * (`#http/input-guard`: well-formed Unicode, no NUL, no key naming an `Object.prototype` member, finite
 * numbers, bounded depth), then the operation's zod schemas. Failures are 422 `validation_error` with `fields`
 * naming each bad field (`body` for a body that is not UTF-8 or not JSON). Body schemas are strict (`schemasOf`,
 * shared/api/strict.ts): a field the operation does not define is named too, never dropped.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import type * as z from '#api/zod';
import { InvalidInput } from '#domain/errors';
import { stateOf } from '#http/state';
import type { PipelineState } from '#http/context';
import { schemasOf } from '#api/operation';
import { dict } from '#domain/dict';
import { inputProblems } from '#http/input-guard';
import { UNKNOWN_FIELD_MESSAGE } from '#api/strict';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const dotted = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)), '');

/**
 * Turns zod issues into `fields`: dotted path (array indexes in brackets) → first message. A key a strict body
 * does not define (zod's `unrecognized_keys`, shared/api/strict.ts) is named itself: `{"due": "is not a field of
 * this body"}`, `{"propertyAddress.zip": …}`.
 */
export function issuesToFields(issues: z.core.$ZodIssue[], prefix?: string): Record<string, string> {
  const fields = dict<string>();
  const put = (name: string, message: string) => {
    if (!Object.hasOwn(fields, name)) fields[name] = message;
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) put(dotted([...issue.path, key]), UNKNOWN_FIELD_MESSAGE);
      continue;
    }
    put(dotted(issue.path) || prefix || 'body', issue.message);
  }
  return fields;
}

/** The request body as text (API Gateway base64-encodes binary bodies); invalid UTF-8 becomes U+FFFD. */
export function rawBody(event: APIGatewayProxyEventV2): string | undefined {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * The JSON value of the body (undefined when there is none), or why it cannot be read: a base64-encoded body
 * that is not UTF-8 (RFC 8259 §8.1: JSON exchanged between systems is UTF-8; its bad bytes are not replaced
 * silently), or text that is not JSON.
 */
function parseJson(event: APIGatewayProxyEventV2): { value: unknown } | { error: string } {
  let text: string | undefined;
  try {
    text = event.isBase64Encoded && event.body ? utf8.decode(Buffer.from(event.body, 'base64')) : rawBody(event);
  } catch {
    return { error: 'is not valid UTF-8 (RFC 8259 §8.1)' };
  }
  if (text === undefined) return { value: undefined };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: 'is not valid JSON' };
  }
}

export function validateInput(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> {
  return {
    before: async (request) => {
      const state = stateOf(request);
      const schemas = schemasOf(state.op!);
      const fields = dict<string>();
      const parse = (schema: z.ZodMiniType | undefined, value: unknown, where: string) => {
        if (!schema) return undefined;
        const problems = inputProblems(value, where);
        if (Object.keys(problems).length) {
          Object.assign(fields, problems);
          return undefined;
        }
        const r = schema.safeParse(value);
        if (r.success) return r.data;
        Object.assign(fields, issuesToFields(r.error.issues, where));
        return undefined;
      };
      const path = parse(schemas.path, request.event.pathParameters ?? {}, 'path');
      const query = parse(schemas.query, request.event.queryStringParameters ?? {}, 'query');
      let body: unknown;
      if (schemas.body) {
        const json = parseJson(request.event);
        if ('error' in json) fields.body = json.error;
        else if (json.value === undefined && !schemas.body.safeParse(undefined).success) fields.body = 'is required';
        else body = parse(schemas.body, json.value, 'body');
      }
      if (Object.keys(fields).length) throw new InvalidInput(fields);
      state.input = { path: path ?? {}, query: query ?? {}, body } as PipelineState['input'];
    },
  };
}
