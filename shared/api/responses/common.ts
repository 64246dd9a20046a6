/**
 * Building blocks of the response schemas (zod mini, converted to JSON Schema for the OpenAPI document and for
 * the end-to-end conformance check). A schema registered with {@link resource} becomes a named component
 * (`#/components/schemas/<id>`); the rest is inlined. Objects are documented as open: the spec's versioning
 * rule lets fields be added, so the document does not forbid unknown ones (the test check is stricter).
 */
import * as z from '#api/zod';

/** Metadata of a named resource schema. */
export interface ResourceMeta {
  /** Component name, e.g. `Transaction`. */
  id: string;
  description?: string;
}

/** The registry of named response resources (read by lib/openapi/json-schema.ts). */
export const resources = z.registry<ResourceMeta>();

/** Registers `schema` as the named component `id`. @returns the same schema */
export function resource<T extends z.ZodMiniType>(id: string, description: string, schema: T): T {
  resources.add(schema, { id, description });
  return schema;
}

/** An ISO 8601 UTC date-time, as `Date.toISOString()` writes it. */
export const timestamp = () => z.iso.datetime({ offset: true });
/** A calendar date `YYYY-MM-DD`. */
export const day = () => z.iso.date();
/** A uuid (ids the service mints). */
export const id = () => z.uuid();
/** A string or null. */
export const nullableString = () => z.nullable(z.string());

/** `{ data: <schema> }`, the envelope of a single resource. */
export const dataOf = <T extends z.ZodMiniType>(schema: T) => z.object({ data: schema });

/** `{ data: <schema>[] }`, the envelope of a list. */
export const listOf = <T extends z.ZodMiniType>(schema: T) => z.object({ data: z.array(schema) });

/** A page of a paginated list (`page`, `pageSize` as requested; `hasMore` when a further page exists). */
export const pageOf = <T extends z.ZodMiniType>(schema: T) =>
  z.object({ data: z.array(schema), page: z.int(), pageSize: z.int(), hasMore: z.boolean() });

/** `{ deleted: true, <idName>: <id> }`, what a single delete answers. */
export const deletedOf = <K extends string>(idName: K) =>
  z.object({ deleted: z.literal(true), ...({ [idName]: z.string() } as { [P in K]: z.ZodMiniString }) });

/** A presigned URL to GET or PUT (S3), with when it expires. */
export const presigned = <M extends 'GET' | 'PUT'>(method: M) => ({ url: z.string(), method: z.literal(method), expiresAt: timestamp() });
