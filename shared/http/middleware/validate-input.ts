/**
 * Parses the JSON body and validates path, query and body against the manifest's zod schemas. Failures
 * are 422 `validation_error` with `fields` naming each bad field (`body` for unparseable JSON).
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import type * as z from '#api/zod';
import { InvalidInput } from '#domain/errors';
import { stateOf } from '#http/state';
import type { PipelineState } from '#http/context';
import { schemasOf } from '#api/operation';

/** Turns zod issues into `fields`: dotted path (array indexes in brackets) → first message. */
export function issuesToFields(issues: z.core.$ZodIssue[], prefix?: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const name =
      issue.path.reduce<string>(
        (acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)),
        '',
      ) || prefix || 'body';
    fields[name] ??= issue.message;
  }
  return fields;
}

/** The request body as text (API Gateway base64-encodes binary bodies). */
export function rawBody(event: APIGatewayProxyEventV2): string | undefined {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

export function validateInput(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> {
  return {
    before: async (request) => {
      const state = stateOf(request);
      const schemas = schemasOf(state.op!);
      const fields: Record<string, string> = {};
      const parse = (schema: z.ZodMiniType | undefined, value: unknown, where: string) => {
        if (!schema) return undefined;
        const r = schema.safeParse(value);
        if (r.success) return r.data;
        Object.assign(fields, issuesToFields(r.error.issues, where));
        return undefined;
      };
      const path = parse(schemas.path, request.event.pathParameters ?? {}, 'path');
      const query = parse(schemas.query, request.event.queryStringParameters ?? {}, 'query');
      let body: unknown;
      if (schemas.body) {
        const text = rawBody(request.event);
        let json: unknown;
        let parsed = true;
        if (text !== undefined) {
          try {
            json = JSON.parse(text);
          } catch {
            parsed = false;
            fields.body = 'is not valid JSON';
          }
        }
        if (parsed) {
          if (json === undefined && !schemas.body.safeParse(undefined).success) fields.body = 'is required';
          else body = parse(schemas.body, json, 'body');
        }
      }
      if (Object.keys(fields).length) throw new InvalidInput(fields);
      state.input = { path: path ?? {}, query: query ?? {}, body } as PipelineState['input'];
    },
  };
}
