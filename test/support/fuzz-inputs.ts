/**
 * Generated bad input for the edge fuzz suite (test/e2e/fuzz-edge-suite.ts): fast-check arbitraries of
 * mutations applied to an operation's valid example request — wrong types, nulls, huge and odd strings (lone
 * surrogates, NUL, bidi marks, prototype keys), boundary and non-finite numbers, bad JSON and bytes, bad
 * path segments and query strings, bad or repeated headers. A case prints short (`Big`, `RawJson`), so a
 * shrunk counterexample stays readable.
 */
import fc from 'fast-check';

/** A long string, printed as `Big("x"×70000)` in counterexamples. */
export class Big {
  constructor(
    readonly char: string,
    readonly length: number,
  ) {}
  get value(): string {
    return this.char.repeat(this.length);
  }
  [fc.toStringMethod](): string {
    return `Big(${JSON.stringify(this.char)}×${this.length})`;
  }
}

/** A JSON token written verbatim into a body (what `JSON.stringify` cannot write: `-0`, `1e400`, deep nesting). */
export class RawJson {
  constructor(
    readonly text: string,
    readonly label = text,
  ) {}
  [fc.toStringMethod](): string {
    return `RawJson(${this.label})`;
  }
}

export type Str = string | Big;
export const strOf = (s: Str): string => (typeof s === 'string' ? s : s.value);

/** Path of a value inside a JSON body. */
export type BodyPath = (string | number)[];

/** How the credential of a case is sent (the harness resolves each to a header). */
export type AuthVariant = 'missing' | 'empty-bearer' | 'basic' | 'lowercase-scheme' | 'unknown-key' | 'huge-key' | 'other-org' | 'wrong-scope' | 'partner-key' | 'two-tokens' | 'repeated';

/** One change to a valid request. */
export type Mutation =
  | { kind: 'body.set'; path: BodyPath; value: unknown }
  | { kind: 'body.delete'; path: BodyPath }
  | { kind: 'body.replace'; value: unknown }
  | { kind: 'body.text'; text: Str }
  | { kind: 'body.bytes'; hex: string }
  | { kind: 'query.set'; key: string; value: Str }
  | { kind: 'query.raw'; text: string }
  | { kind: 'path.set'; name: string; value: Str }
  | { kind: 'path.raw'; name: string; text: string }
  | { kind: 'header'; name: string; value: Str }
  | { kind: 'auth'; variant: AuthVariant }
  | { kind: 'content-type'; value: string | null };

/** What the generator knows of an operation: its parameter names and the paths of its example body. */
export interface OperationSpace {
  pathParams: string[];
  queryKeys: string[];
  /** Paths of every value in the example body, and the top-level keys of the body schema. */
  bodyPaths: BodyPath[];
  hasBody: boolean;
}

export const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__'] as const;
const protoKey = fc.constantFrom(...PROTO_KEYS);

const oddChar = fc.oneof(
  fc.constantFrom('\ud800', '\udfff', '\udc00x', '\u0000', '\u202e', '\u200f', '\u2066', '\ufeff', '\u2028', '\u0085', '\u0001', '\u001b', '\u007f', '\u00a0', '\u3000'),
  fc.constantFrom('😀', 'e\u0301', 'ﬁ', 'Ω', '\r\n', '\t', '/', '\\', '%', '"', "'", '#', '.', '..', '<', '{', '$', '&', '=', '?', ',', '+'),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
);

const DATEISH = [
  '2027-02-30', '2027-02-29', '2028-02-29', '2027-04-31', '2027-13-01', '2027-00-10', '0000-01-01', '9999-12-31', '1899-12-31', '2200-01-01',
  '2027-02-28T25:00:00Z', '2027-02-28T24:00:00Z', '2027-02-28T23:60:00Z', '2027-02-28T23:59:60Z', '2027-02-28T10:00:00+24:00', '2027-02-28T10:00:00+05:99',
  '2027-02-28Tnonsense', '2027-02-28T10:00:00.1234567891Z', '2027-02-28 10:00:00', 'March 7, 2027', '2027', '2027-1-5', '+002027-02-28', '2027-02-28T10:00:00.Z',
];
const NUMBERISH = ['null', 'undefined', 'true', '0', '-0', '1e400', '-1e400', 'NaN', 'Infinity', '0x10', '１２', '2147483648', '-2147483649', '9007199254740993', '00000000000000000000001', '1.0', ' 7', '7 ', '+7', '1_000'];
const INJECTIONS = ["' OR '1'='1", '${7*7}', '{{7*7}}', '<script>alert(1)</script>', 'ORG#x#TXN#y', 'KD#ClosingDate', 'APIKEY', '../../etc/passwd', 'a,b', 'C:\\Windows', '\\\\server\\share'];
const UUIDISH = [
  '0D3C8F4E-5B7A-4F0E-9A51-3C2B1D4E6F70', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '0d3c8f4e-5b7a-4f0e-9a51-3c2b1d4e6f7',
  '{0d3c8f4e-5b7a-4f0e-9a51-3c2b1d4e6f70}', ' 0d3c8f4e-5b7a-4f0e-9a51-3c2b1d4e6f70', '0d3c8f4e5b7a4f0e9a513c2b1d4e6f70', 'urn:uuid:0d3c8f4e-5b7a-4f0e-9a51-3c2b1d4e6f70',
];

/** Long strings: around the key and field limits (256, 1024, 2048 bytes), past a DynamoDB item (400 KB). */
const big = fc.oneof(
  fc.tuple(fc.constantFrom(65, 201, 256, 1025, 2049, 5001, 70_000), fc.constantFrom('x', 'é', '😀', '\ud800', ' ')).map(([n, c]) => new Big(c, n)),
  fc.constant(new Big('x', 400_001)),
);

/** Odd strings: odd characters, prototype names, numbers and dates as text, injections, uuid look-alikes, long strings. */
export const oddString: fc.Arbitrary<Str> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: oddChar, maxLength: 8 }) },
  { weight: 2, arbitrary: protoKey },
  { weight: 2, arbitrary: fc.constantFrom('', ' ', '\t', '  padded  ', ...NUMBERISH) },
  { weight: 2, arbitrary: fc.constantFrom(...DATEISH) },
  { weight: 1, arbitrary: fc.constantFrom(...INJECTIONS) },
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...UUIDISH), fc.uuid()) },
  { weight: 2, arbitrary: big },
);

/** Boundary and non-finite numbers (as JSON tokens where JSON.stringify cannot write them). */
const badNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(0, -1, 1, 1.5, 5, 101, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, Number.MIN_VALUE, 0.1 + 0.2, 25_000_001),
  fc.constantFrom(new RawJson('-0'), new RawJson('1e400'), new RawJson('-1e400'), new RawJson('1E-400'), new RawJson('123456789012345678901234567890'), new RawJson('1.0')),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
  { weight: 2, arbitrary: badNumber },
  { weight: 4, arbitrary: oddString },
);

/** An object with the given own entries (`__proto__` included, as JSON.parse makes it). */
export function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

const deep = (n: number, open: string, close: string) => new RawJson(open.repeat(n) + close.repeat(n), `${open}×${n}`);

/** Any bad JSON value: scalars, small arrays, objects with prototype or odd keys, deep or huge structures. */
export const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 2, arbitrary: fc.array(fc.tuple(fc.oneof(protoKey, oddString.map(strOf)), scalar), { minLength: 1, maxLength: 3 }).map(objectOf) },
  { weight: 1, arbitrary: fc.constantFrom(deep(40, '[', ']'), deep(100_000, '[', ']'), deep(40, '{"a":', '}'), new RawJson(`[${'1,'.repeat(100_000)}1]`, '[1×100001]')) },
);

const BAD_JSON_TEXT = ['{', '{"a":}', '[', '"', '', ' ', 'null', '[]', '"text"', '\ufeff{}', "{'a':1}", 'NaN', '{"a":NaN}', '{"a":Infinity}', '{"a":1}garbage', '\u0000', '<xml/>', 'a=1&b=2', '{"a":"\\ud800"}', '{"__proto__":{"isAdmin":true}}', '{"a":"\\u0000"}'];
const BAD_BYTES = ['fffe', 'c0af', 'eda080', '7b2261223a22ff227d', 'efbbbf7b7d', '00', '7b7d00', 'feff007b007d'];

const QUERY_RAW = ['%', '%E0%A4%A', '%ED%A0%80', '%00', '%FF', 'a=%zz', '&&&', '=', 'limit', '__proto__=1', 'constructor=1', 'toString=x', 'limit=1&limit=2', 'limit=%2B1', 'pageSize=1e1', 'page=-0', 'q=%EF%BB%BF'];
const PATH_RAW = ['%', '%ED%A0%80', '%00', '..', '.', '%2F', '%2e%2e', ';', 'a%2Fb', '%20', '%C0%AF', '%25'];

const header: fc.Arbitrary<{ name: string; value: Str }> = fc.oneof(
  fc.record({ name: fc.constant('idempotency-key'), value: fc.oneof(fc.constantFrom('', ' ', 'é', 'a b', 'k'), fc.constantFrom(new Big('k', 200), new Big('k', 201), new Big('é', 150))) }),
  fc.record({ name: fc.constantFrom('content-encoding', 'x-http-method-override', 'accept', 'x-forwarded-for', 'origin', 'expect'), value: fc.constantFrom('gzip', 'DELETE', '*/*', '127.0.0.1, 10.0.0.1', 'null', '100-continue', 'é') }),
  fc.record({ name: fc.constantFrom(...PROTO_KEYS.filter((k) => k !== 'prototype')), value: fc.constant('1') }),
);

const AUTH: AuthVariant[] = ['missing', 'empty-bearer', 'basic', 'lowercase-scheme', 'unknown-key', 'huge-key', 'other-org', 'wrong-scope', 'partner-key', 'two-tokens', 'repeated'];
const CONTENT_TYPES = [null, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/octet-stream', 'application/json; charset=utf-16', 'application/xml', 'application/json, text/plain'];

/** The mutations that fit an operation: body ones only where a body is read, path ones where it has parameters. */
export function mutation(space: OperationSpace): fc.Arbitrary<Mutation> {
  const bodyPath = space.bodyPaths.length
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...space.bodyPaths) }, { weight: 1, arbitrary: fc.tuple(protoKey) as fc.Arbitrary<BodyPath> })
    : (fc.tuple(protoKey) as fc.Arbitrary<BodyPath>);
  const queryKey = fc.oneof(...(space.queryKeys.length ? [{ weight: 4, arbitrary: fc.constantFrom(...space.queryKeys) }] : []), { weight: 1, arbitrary: fc.oneof(protoKey, fc.constant('unknownParam')) });
  const options: fc.WeightedArbitrary<Mutation>[] = [
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('query.set' as const), key: queryKey, value: oddString }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('query.raw' as const), text: fc.constantFrom(...QUERY_RAW) }) },
    { weight: 1, arbitrary: header.map((h) => ({ kind: 'header' as const, ...h })) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('auth' as const), variant: fc.constantFrom(...AUTH) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('content-type' as const), value: fc.constantFrom(...CONTENT_TYPES) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('body.text' as const), text: fc.oneof(fc.constantFrom(...BAD_JSON_TEXT), big) }) },
  ];
  if (space.hasBody) {
    options.push(
      { weight: 8, arbitrary: fc.record({ kind: fc.constant('body.set' as const), path: bodyPath, value: badValue }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('body.delete' as const), path: bodyPath }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('body.replace' as const), value: badValue }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('body.bytes' as const), hex: fc.constantFrom(...BAD_BYTES) }) },
    );
  }
  if (space.pathParams.length) {
    const name = fc.constantFrom(...space.pathParams);
    options.push(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('path.set' as const), name, value: oddString }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('path.raw' as const), name, text: fc.constantFrom(...PATH_RAW) }) },
    );
  }
  return fc.oneof(...options);
}

/** One to three mutations of the operation's valid request. */
export const fuzzCase = (space: OperationSpace): fc.Arbitrary<Mutation[]> => fc.array(mutation(space), { minLength: 1, maxLength: 3 });

/**
 * JSON text of a body value: like `JSON.stringify` (lone surrogates escaped as `\udxxx`, as ES2019 writes them),
 * but `RawJson` tokens and `Big` strings written out, `-0` kept, and own `__proto__` keys kept.
 */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof Big) return JSON.stringify(value.value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (typeof value === 'object' && value !== null) return `{${Object.keys(value).map((k) => `${JSON.stringify(k)}:${jsonText((value as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * Percent-encodes a string as UTF-8 for a path segment or query value, every byte outside RFC 3986's unreserved
 * set escaped. A lone surrogate is written as its WTF-8 bytes (`%ED%A0%80`), which no UTF-8 decoder accepts.
 */
export function percentEncode(s: string): string {
  // encodeURIComponent writes UTF-8 escapes in linear time (the suite sends 400 000-character values) but leaves
  // !'()* as they are and throws on a lone surrogate, so those are escaped here.
  return s
    .split(LONE_SURROGATE)
    .map((part, i) => {
      if (i % 2 === 0) return encodeURIComponent(part).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
      const c = part.charCodeAt(0);
      return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    })
    .join('');
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (captured, for `split`). */
const LONE_SURROGATE = /([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/;
