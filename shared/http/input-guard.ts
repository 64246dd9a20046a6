/**
 * The one check every request value passes before its operation's schema, whatever the field: path
 * parameters, query parameters and every string, key and number of the JSON body. It refuses what no field
 * of this API can legitimately hold, so no schema has to remember it:
 * - strings that are not well-formed Unicode (a lone UTF-16 surrogate, e.g. JSON `"\ud800"`): they cannot be
 *   encoded as UTF-8 (RFC 8259 §8.2), so they fail later in a URL, a header or a file name;
 * - the NUL character U+0000: it truncates strings in C-based consumers (mail, PDF, file systems);
 * - object keys that name a member of `Object.prototype` (`__proto__`, `constructor`, `toString`, `valueOf`…):
 *   no field of the API has such a name, and as keys of a map they break code that reads or stores it —
 *   copying `__proto__` into a plain object replaces its prototype and zod drops it silently (OWASP "Prototype
 *   Pollution Prevention"); a map with an own `constructor` or `toString` cannot be marshalled to a DynamoDB
 *   item by `@aws-sdk/util-dynamodb` (it throws, a 500). So a webhook header named `constructor`, a legal
 *   RFC 9110 token, is refused too; `Constructor` or `X-toString` are not;
 * - numbers that are not finite (`1e400` parses as Infinity);
 * - nesting deeper than `MAX_DEPTH` (the walk is iterative, so depth cannot exhaust the stack).
 */
import { dict } from '#domain/dict';

/** Deepest accepted nesting of arrays and objects in a body (the deepest schema of the API uses 3). */
export const MAX_DEPTH = 32;

/** Object keys refused anywhere: the own members of `Object.prototype` (`__proto__` among them). */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** At most this many problems are reported (the response stays small whatever the input). */
const MAX_PROBLEMS = 20;

/** Why a string is refused, or undefined when it is acceptable. */
export function stringProblem(value: string): string | undefined {
  if (!value.isWellFormed()) return 'is not well-formed Unicode (it holds a lone UTF-16 surrogate)';
  if (value.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  return undefined;
}

/**
 * The problems of one request value, as validation `fields`: dotted path (array indexes in brackets, as
 * `issuesToFields` names them) → message. The root itself is named `root`.
 * @param value a parsed JSON body, or a flat map of path or query parameters
 * @returns an empty object when the value passes
 */
export function inputProblems(value: unknown, root: string): Record<string, string> {
  const fields = dict<string>();
  const report = (path: string, message: string) => {
    if (!Object.hasOwn(fields, path)) fields[path] = message;
  };
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length && Object.keys(fields).length < MAX_PROBLEMS) {
    const { value: v, path, depth } = stack.pop()!;
    const name = path || root;
    if (typeof v === 'string') {
      const problem = stringProblem(v);
      if (problem) report(name, problem);
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) report(name, 'must be a finite number');
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= MAX_DEPTH) {
        report(name, `is nested too deeply (at most ${MAX_DEPTH} levels)`);
        continue;
      }
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: `${path}[${i}]`, depth: depth + 1 });
        continue;
      }
      for (const key of Object.keys(v).reverse()) {
        const at = path ? `${path}.${key}` : key;
        const keyProblem = RESERVED_KEYS.has(key) ? 'is a reserved name (a member of every JavaScript object)' : stringProblem(key);
        if (keyProblem) report(key.isWellFormed() ? at : path ? `${path}.<key>` : '<key>', keyProblem);
        else stack.push({ value: (v as Record<string, unknown>)[key], path: at, depth: depth + 1 });
      }
    }
  }
  return fields;
}
