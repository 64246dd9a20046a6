/**
 * Turns an operation's valid request and a list of mutations (test/support/fuzz-inputs.ts) into the raw HTTP
 * request the fuzz suite sends.
 */
import { Big, jsonText, percentEncode, RawJson, strOf, type AuthVariant, type BodyPath, type Mutation } from './fuzz-inputs.ts';

/** A valid request of an operation, bound to existing resources. */
export interface ValidRequest {
  method: string;
  /** Path template with `{param}` placeholders. */
  path: string;
  pathValues: Record<string, string>;
  query: Record<string, string>;
  /** Undefined when the operation reads no body. */
  body: unknown;
}

/** The credentials a case can use (values of API keys). */
export interface Credentials {
  valid: string;
  otherOrg: string;
  wrongScope: string;
  partner: string;
}

/** The request as bytes and parts, ready for `sendRaw`. */
export interface RenderedRequest {
  method: string;
  target: string;
  headers: [string, string][];
  body?: Buffer;
}

/** Copy of a JSON-like value; `Big` and `RawJson` markers are kept as they are. */
function clone(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(clone);
  if (typeof v === 'object' && v !== null && !(v instanceof Big) && !(v instanceof RawJson)) {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v)) define(o, k, clone((v as Record<string, unknown>)[k]));
    return o;
  }
  return v;
}

/** Sets an own property, `__proto__` included (plain assignment would replace the prototype). */
function define(o: object, key: string | number, value: unknown) {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

const isContainer = (v: unknown): v is Record<string | number, unknown> => typeof v === 'object' && v !== null && !(v instanceof Big) && !(v instanceof RawJson);

/** `root` with the value at `path` set (missing containers created), or deleted when `value` is `DELETE`. */
function at(root: unknown, path: BodyPath, value: unknown): unknown {
  if (!path.length) return value;
  const top = isContainer(root) ? root : {};
  let cur: Record<string | number, unknown> = top;
  for (let i = 0; i < path.length - 1; i++) {
    const next = Object.hasOwn(cur, path[i]) ? cur[path[i]] : undefined;
    if (!isContainer(next)) define(cur, path[i], typeof path[i + 1] === 'number' ? [] : {});
    cur = cur[path[i]] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (value === DELETE) delete cur[last];
  else define(cur, last, value);
  return top;
}
const DELETE = Symbol('delete');

function authHeaders(variant: AuthVariant | undefined, c: Credentials): [string, string][] {
  switch (variant) {
    case undefined:
      return [['authorization', `Bearer ${c.valid}`]];
    case 'missing':
      return [];
    case 'empty-bearer':
      return [['authorization', 'Bearer ']];
    case 'basic':
      return [['authorization', 'Basic dXNlcjpwYXNz']];
    case 'lowercase-scheme':
      return [['authorization', `bearer ${c.valid}`]];
    case 'unknown-key':
      return [['authorization', `Bearer mcp_at_${'A'.repeat(43)}`]];
    case 'huge-key':
      return [['authorization', `Bearer mcp_at_${'A'.repeat(20_000)}`]];
    case 'other-org':
      return [['authorization', `Bearer ${c.otherOrg}`]];
    case 'wrong-scope':
      return [['authorization', `Bearer ${c.wrongScope}`]];
    case 'partner-key':
      return [['authorization', `Bearer ${c.partner}`]];
    case 'two-tokens':
      return [['authorization', `Bearer ${c.valid} ${c.valid}`]];
    case 'repeated':
      return [['authorization', `Bearer ${c.valid}`], ['authorization', `Bearer mcp_at_${'B'.repeat(43)}`]];
  }
}

/** The request `valid` becomes once `mutations` are applied, in order. */
export function render(valid: ValidRequest, mutations: Mutation[], credentials: Credentials): RenderedRequest {
  const segments = { ...Object.fromEntries(Object.entries(valid.pathValues).map(([k, v]) => [k, percentEncode(v)])) };
  const query: [string, string][] = Object.entries(valid.query).map(([k, v]) => [percentEncode(k), percentEncode(v)]);
  const rawQuery: string[] = [];
  let body = clone(valid.body);
  let bodyBytes: Buffer | undefined;
  let auth: AuthVariant | undefined;
  let contentType: string | null | undefined;
  const extraHeaders: [string, string][] = [];
  for (const m of mutations) {
    switch (m.kind) {
      case 'body.set':
        body = at(body, m.path, m.value);
        break;
      case 'body.delete':
        body = at(body, m.path, DELETE);
        break;
      case 'body.replace':
        body = m.value;
        break;
      case 'body.text':
        bodyBytes = Buffer.from(strOf(m.text), 'utf8');
        break;
      case 'body.bytes':
        bodyBytes = Buffer.from(m.hex, 'hex');
        break;
      case 'query.set': {
        const key = percentEncode(m.key);
        const i = query.findIndex(([k]) => k === key);
        if (i >= 0) query.splice(i, 1);
        query.push([key, percentEncode(strOf(m.value))]);
        break;
      }
      case 'query.raw':
        rawQuery.push(m.text);
        break;
      case 'path.set':
        segments[m.name] = percentEncode(strOf(m.value));
        break;
      case 'path.raw':
        segments[m.name] = m.text;
        break;
      case 'header':
        extraHeaders.push([m.name, strOf(m.value)]);
        break;
      case 'auth':
        auth = m.variant;
        break;
      case 'content-type':
        contentType = m.value;
        break;
    }
  }
  if (bodyBytes === undefined && body !== undefined) bodyBytes = Buffer.from(jsonText(body), 'utf8');
  const path = valid.path.replace(/\{(\w+)\}/g, (_, name: string) => segments[name]);
  const qs = [...query.map(([k, v]) => `${k}=${v}`), ...rawQuery].join('&');
  const headers = authHeaders(auth, credentials);
  if (bodyBytes !== undefined && contentType !== null) headers.push(['content-type', contentType ?? 'application/json']);
  headers.push(...extraHeaders);
  return { method: valid.method, target: qs ? `${path}?${qs}` : path, headers, body: bodyBytes };
}

/** A short, printable account of a rendered request (long parts cut). */
export function describeRequest(r: RenderedRequest): string {
  const cut = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
  const headers = r.headers.map(([k, v]) => `${k}: ${cut(v, 80)}`).join('; ');
  return `${r.method} ${cut(r.target)}\n  headers: ${headers}\n  body: ${r.body ? cut(JSON.stringify(r.body.toString('utf8'))) : '(none)'}`;
}
