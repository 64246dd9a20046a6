/**
 * An operation of the API is one typed object: its route, scope, schemas and handler live together in its own
 * module, `functions/<group>/<operation>.ts`, whose default export is `defineOperation({...})` (or
 * `plannedOperation({...})` for an operation of the spec not built yet, which answers 501). The handler's
 * `path`, `query` and `body` types are inferred from the zod schemas, so reading a field the schema lacks does
 * not compile. Groups, API Gateway routes, the local router, `GET /catalog`, IAM grants and the coverage table
 * (docs/coverage.md) are all derived from these objects (see lib/registry.ts).
 */
import type * as z from '#api/zod';
import type { Access, Capability, HttpMethod, LambdaGroup } from '#api/types';
import type { OperationResult, RequestContext } from '#http/context';
import { strictDeep } from '#api/strict';

/** Zod schemas of an operation's input; each is built on first use (a function validates only its own routes). */
export interface OperationSchemas {
  /** Path parameters, e.g. `{ transactionId: uuid }`. */
  path?: z.ZodMiniObject;
  /** Query string parameters (values arrive as strings; int32 helpers coerce digit strings). */
  query?: z.ZodMiniObject;
  /** JSON body. Omitted means the operation takes no body (one sent anyway is ignored). */
  body?: z.ZodMiniType;
}

type Parsed<T, Empty> = T extends z.ZodMiniType ? z.output<T> : Empty;
type Given<T, Empty> = T extends z.ZodMiniType ? z.input<T> : Empty;

/** Validated, typed input: the zod output of the operation's schemas (`{}` / `undefined` where it has none). */
export interface OperationInput<S extends OperationSchemas = OperationSchemas> {
  path: Parsed<S['path'], Record<never, never>>;
  query: Parsed<S['query'], Record<never, never>>;
  body: Parsed<S['body'], undefined>;
}

/** A valid request of the operation as a client sends it (zod input types), for tests and the API reference. */
export interface OperationExample<S extends OperationSchemas = OperationSchemas> {
  query?: Given<S['query'], never>;
  body?: Given<S['body'], never>;
}

/** The operation's logic: typed input and the request context in, a response body out. Throws domain errors. */
export type OperationHandler<S extends OperationSchemas = OperationSchemas> = (input: OperationInput<S>, ctx: RequestContext) => Promise<OperationResult>;

/** What every operation declares besides its handler. */
interface OperationMeta<S extends OperationSchemas> {
  /** Stable camelCase id (spec operation names). */
  operationId: string;
  method: HttpMethod;
  /** Full path with `{param}` placeholders, e.g. `/api/v1/transactions/{transactionId}`. */
  path: string;
  access: Access;
  /** The spec marks it (IK): honours `Idempotency-Key`. Default false. */
  idempotent?: boolean;
  /** One line for the catalog and the reference (the OpenAPI `description`). */
  summary: string;
  /**
   * A few words naming the operation, the OpenAPI `summary` (the reference's sidebar) and the MCP tool's title.
   * Default: the operationId in words (`createTransaction` → "Create transaction"; see `titleOf`).
   */
  title?: string;
  /** True where the spec says "not shown" and the shape is this service's own design (docs/design-choices.md). */
  designedHere?: boolean;
  /** Capabilities its group's function must have (types.ts `Capability`). */
  uses?: readonly Capability[];
  /**
   * Callable while the workspace is frozen for deletion although it is not a GET (deletion cancel, export request).
   * Default false: every other write is refused then (shared/domain/workspace-lifecycle.ts `assertWritable`).
   */
  whileFrozen?: boolean;
  /** The input schemas, built on first use. Default: no input. */
  schemas?: () => S;
  /**
   * The JSON body of the 200 response, built on first use (shared/api/responses/). It documents the operation in
   * the OpenAPI document and end-to-end tests check every response against it. A planned operation gives it
   * where the spec shows the shape. Default: undocumented.
   */
  response?: () => z.ZodMiniType;
  /** The 200 response's description in the OpenAPI document, where the summary does not say enough (e.g. a body that links to a file of another media type). Default: the summary. */
  responseDescription?: string;
}

/** `defineOperation`'s argument: metadata, schemas, a handler and optionally a valid example request. */
export interface OperationDefinition<S extends OperationSchemas> extends OperationMeta<S> {
  handler: OperationHandler<S>;
  /** A request that passes validation (path parameters come from the caller's own resources). */
  example?: OperationExample<S>;
}

/** `plannedOperation`'s argument: metadata and schemas, and where the work is tracked. */
export interface PlannedDefinition<S extends OperationSchemas> extends OperationMeta<S> {
  /** The issue that builds it, shown in the 501 message and the coverage table, e.g. `issue #9 (messaging)`. */
  planned: string;
}

const OPERATION = Symbol.for('tcs.operation');

/** An operation as the registry and the pipeline see it. */
export interface Operation<S extends OperationSchemas = OperationSchemas> {
  readonly [OPERATION]: true;
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly access: Access;
  readonly idempotent: boolean;
  readonly summary: string;
  readonly title?: string;
  readonly designedHere: boolean;
  readonly uses: readonly Capability[];
  /** Callable by a non-GET request while the workspace is frozen for deletion. */
  readonly whileFrozen: boolean;
  /** Builds the schemas (cached by the caller; see `schemasOf`). */
  readonly schemas: () => S;
  /** Builds the 200 response body's schema, when documented (see `responseOf`). */
  readonly response?: () => z.ZodMiniType;
  readonly responseDescription?: string;
  /** Undefined while planned. A method signature, so operations of different schemas share one list type. */
  handler?(input: OperationInput<S>, ctx: RequestContext): Promise<OperationResult>;
  readonly example?: OperationExample<S>;
  /** Set while the operation answers 501 `not_implemented`. */
  readonly planned?: string;
}

/** An operation found in `functions/<group>/`, with the group it belongs to. */
export type RegisteredOperation = Operation & { readonly group: LambdaGroup };

function base<S extends OperationSchemas>(def: OperationMeta<S>) {
  return {
    [OPERATION]: true as const,
    operationId: def.operationId,
    method: def.method,
    path: def.path,
    access: def.access,
    idempotent: def.idempotent ?? false,
    summary: def.summary,
    title: def.title,
    designedHere: def.designedHere ?? false,
    uses: def.uses ?? [],
    whileFrozen: def.whileFrozen ?? false,
    schemas: def.schemas ?? (() => ({}) as S),
    response: def.response,
    responseDescription: def.responseDescription,
  };
}

/** An implemented operation. @returns the operation object a module exports as its default */
export function defineOperation<S extends OperationSchemas = Record<never, never>>(def: OperationDefinition<S>): Operation<S> {
  return { ...base(def), handler: def.handler, example: def.example };
}

/** An operation of the spec not built yet: validated like any other, then answers 501 `not_implemented`. */
export function plannedOperation<S extends OperationSchemas = Record<never, never>>(def: PlannedDefinition<S>): Operation<S> {
  return { ...base(def), planned: def.planned };
}

/** True for a value made by `defineOperation` or `plannedOperation` (module discovery checks default exports). */
export const isOperation = (value: unknown): value is Operation =>
  typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[OPERATION] === true;

/** True when the operation has a handler (the catalog's `callable` and the coverage table use it). */
export const isImplemented = (op: Operation): boolean => typeof op.handler === 'function';

/** The operation's short name: its `title`, else its operationId in words (`listNotifications` → "List notifications"). */
export function titleOf(op: Pick<Operation, 'operationId' | 'title'>): string {
  if (op.title) return op.title;
  const words = op.operationId.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** API Gateway route key, e.g. `GET /api/v1/transactions/{transactionId}`. */
export const routeKeyOf = (op: Pick<Operation, 'method' | 'path'>): string => `${op.method} ${op.path}`;

const built = new WeakMap<Operation, OperationSchemas>();

/**
 * An operation's schemas, built once per process on first use. The body schema is made strict here, once for
 * every operation (shared/api/strict.ts): an unknown field, at any depth, is a 422 naming it, except inside the
 * free-form maps (records, JSON values) the spec allows.
 */
export function schemasOf(op: Operation): OperationSchemas {
  let schemas = built.get(op);
  if (!schemas) {
    const own = op.schemas();
    schemas = own.body ? { ...own, body: strictDeep(own.body) } : own;
    built.set(op, schemas);
  }
  return schemas;
}

const builtResponses = new WeakMap<Operation, z.ZodMiniType>();

/** An operation's 200 response-body schema, built once per process; undefined when it documents none. */
export function responseOf(op: Operation): z.ZodMiniType | undefined {
  if (!op.response) return undefined;
  let schema = builtResponses.get(op);
  if (!schema) builtResponses.set(op, (schema = op.response()));
  return schema;
}

/** What `GET /catalog` and the coverage table know of an operation: no schemas, no handler. */
export interface CatalogEntry {
  operationId: string;
  method: HttpMethod;
  path: string;
  access: Access;
  idempotent: boolean;
  group: LambdaGroup;
  summary: string;
  designedHere: boolean;
  /** Null when implemented; else where the work is tracked. */
  planned: string | null;
}

/** The catalog entry of a registered operation. */
export const catalogEntryOf = (op: RegisteredOperation): CatalogEntry => ({
  operationId: op.operationId,
  method: op.method,
  path: op.path,
  access: op.access,
  idempotent: op.idempotent,
  group: op.group,
  summary: op.summary,
  designedHere: op.designedHere,
  planned: isImplemented(op) ? null : (op.planned ?? 'no handler'),
});
