/**
 * The OpenAPI 3.1 document generated from the registry: valid against the OpenAPI 3.1 schema (a maintained
 * validator, @seriousme/openapi-schema-validator), complete (every operation, request and response schemas,
 * errors, security) and committed up to date in docs/.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isImplemented, schemasOf, titleOf } from '#api/operation';
import { loadOperations } from '#lib/registry';
import { buildOpenApi } from '#lib/openapi/document';
import { GENERATED, generatedDocs } from '#lib/openapi/generated-files';
import { typeArrays } from '../support/strict-schema.ts';

const ops = await loadOperations();
const doc = buildOpenApi(ops);
const opOf = (method: string, path: string) => doc.paths[path]?.[method.toLowerCase()];

describe('OpenAPI document', () => {
  it('validates against the OpenAPI 3.1 schema', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('the validator does reject a broken document (the check can fail)', async () => {
    const broken = structuredClone(doc);
    broken.components.securitySchemes.orgApiKey.type = 'bearer';
    broken.paths['/api/v1/health'].get.parameters = [{ name: 'x', in: 'body' }];
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has every operation once, by operationId, with a short summary, its sentence as description, tag and scope', () => {
    const ids = Object.values(doc.paths).flatMap((item: any) => Object.values(item).map((o: any) => o.operationId));
    expect(ids.sort()).toEqual(ops.map((o) => o.operationId).sort());
    for (const op of ops) {
      const o = opOf(op.method, op.path);
      expect(o.summary).toBe(titleOf(op));
      expect(o.summary.split(' ').length, op.operationId).toBeLessThanOrEqual(6);
      expect(o.description.startsWith(op.summary), op.operationId).toBe(true);
      expect(o.tags).toEqual([op.group]);
      expect(o['x-scope']).toBe(op.access);
    }
  });

  it('documents a 200 body schema for every implemented operation', () => {
    const missing = ops.filter((op) => isImplemented(op) && !opOf(op.method, op.path).responses['200'].content);
    expect(missing.map((o) => o.operationId)).toEqual([]);
  });

  it('gives planned operations their 501 and implemented ones none', () => {
    for (const op of ops) expect(Boolean(opOf(op.method, op.path).responses['501']), op.operationId).toBe(!isImplemented(op));
  });

  it('lists exactly the spec\'s error statuses: 401/403/404/429 always, 422 with validated input, 409 with (IK), all in the envelope', () => {
    // Spec "Endpoints": "Error statuses per operation are 401, 403, 404 and 429, plus 422 where a body or identifier
    // is validated, plus 409 where marked (IK)." (and this service's 501 while planned). The e2e clients hold every
    // response to this list (test/support/openapi-conformance.ts): a 4xx not listed fails the call.
    for (const op of ops) {
      const r = opOf(op.method, op.path).responses;
      const s = schemasOf(op);
      const allowed = ['401', '403', '404', '429'];
      if (s.path || s.query || s.body || op.idempotent) allowed.push('422');
      if (op.idempotent) allowed.push('409');
      if (!isImplemented(op)) allowed.push('501');
      expect(Object.keys(r).filter((k) => k !== '200' && k !== 'default').sort(), op.operationId).toEqual(allowed.sort());
      expect(r.default, op.operationId).toBeDefined();
    }
    expect(doc.components.responses.RateLimited.headers['Retry-After']).toBeDefined();
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
  });

  it('takes the Idempotency-Key header on (IK) operations only', () => {
    for (const op of ops) {
      const params: any[] = opOf(op.method, op.path).parameters ?? [];
      expect(params.some((p) => p.$ref === '#/components/parameters/IdempotencyKey'), op.operationId).toBe(op.idempotent);
    }
    expect(doc.components.parameters.IdempotencyKey.schema.maxLength).toBe(200);
  });

  it('declares the three credential types, and per operation the scheme and scope it takes', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['oauth2', 'orgApiKey', 'partnerKey']);
    expect(Object.keys(doc.components.securitySchemes.oauth2.flows.authorizationCode.scopes).sort()).toEqual(['actions', 'draft', 'read']);
    for (const op of ops) {
      const security = opOf(op.method, op.path).security;
      if (op.access === 'partner') expect(security).toEqual([{ partnerKey: [] }]);
      else expect(security).toEqual([{ orgApiKey: [op.access] }, { oauth2: [op.access] }]);
    }
  });

  it('derives parameters and bodies from the zod schemas (an int32 query is a bounded integer; uuids in the path)', () => {
    const list = opOf('GET', '/api/v1/transactions');
    const pageSize = list.parameters.find((p: any) => p.name === 'pageSize');
    // The value's type and bounds (the wire form, a digit string, is the transport's), and the module's example.
    expect(pageSize).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 }, example: 10 });
    const create = opOf('POST', '/api/v1/transactions/{transactionId}/tasks');
    expect(create.parameters[0]).toMatchObject({ name: 'transactionId', in: 'path', required: true, schema: { format: 'uuid' } });
    expect(create.requestBody.required).toBe(true);
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['title']);
    expect(opOf('POST', '/api/v1/contacts').requestBody.required).toBe(false);
  });

  it('writes nullables portably (anyOf with null, never a type array) and no meaningless bounds', () => {
    expect(typeArrays(doc)).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    const isCustom = opOf('POST', '/api/v1/transactions/{transactionId}/key-dates').requestBody.content['application/json'].schema.properties.keyDates.items.properties.isCustom;
    expect(isCustom).toEqual({ anyOf: [{ type: 'boolean' }, { type: 'null' }] });
    const task = doc.components.schemas.Task ?? {};
    expect(JSON.stringify(task)).not.toContain('-9007199254740991');
  });

  it('shows each module\'s example request, and every example is valid against its own schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'urn:tcs:openapi', components: doc.components });
    const check = (schema: unknown, value: unknown, where: string) => {
      const rooted = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"urn:tcs:openapi#/components/'));
      const validate = ajv.compile(rooted);
      expect(validate(value), `${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    };
    let bodies = 0;
    let params = 0;
    for (const op of ops) {
      const o = opOf(op.method, op.path);
      const media = o.requestBody?.content['application/json'];
      if (media && isImplemented(op)) {
        expect(media.example, `${op.operationId} has a body but no example`).toBeDefined();
        check(media.schema, media.example, `${op.operationId} body`);
        bodies++;
      }
      for (const p of o.parameters ?? []) {
        if (p.example === undefined) continue;
        check(p.schema, p.example, `${op.operationId} ${p.name}`);
        params++;
      }
    }
    expect(bodies).toBeGreaterThan(40);
    expect(params).toBeGreaterThan(20);
  });

  it('names shared resources as components and refers to them', () => {
    expect(doc.components.schemas.Transaction.properties.side.enum).toEqual(['Buyer', 'Seller']);
    expect(opOf('GET', '/api/v1/transactions/{transactionId}').responses['200'].content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/Deal' });
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(\w+)\/([\w-]+)"/g)];
    for (const [, kind, name] of refs) expect(doc.components[kind]?.[name], `${kind}/${name}`).toBeDefined();
  });

  it('is committed up to date in docs/ (run `npm run openapi`)', async () => {
    const want = await generatedDocs();
    expect(readFileSync(GENERATED.openapi, 'utf8')).toBe(want.openapi);
    expect(readFileSync(GENERATED.reference, 'utf8')).toBe(want.reference);
  });
});

describe('OpenAPI components', () => {
  it('no component schema is only a reference to itself', () => {
    for (const [name, schema] of Object.entries(doc.components.schemas)) expect((schema as any).$ref, name).not.toBe(`#/components/schemas/${name}`);
    expect(doc.components.schemas.OrgHealth.properties.apiVersion).toEqual({ type: 'string' });
  });
});
