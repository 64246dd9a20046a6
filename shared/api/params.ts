/**
 * Reusable zod building blocks for the manifest: int32 query parameters that accept digit strings
 * (spec "Conventions"), uuids, calendar dates and nullable strings.
 */
import * as z from '#api/zod';

const INT32_MAX = 2_147_483_647;

/**
 * An int32 query/body value given as a number or a string of digits (spec: "Integer query parameters
 * (type int32) accept an integer or a string of digits"). Bounds are inclusive.
 */
export function int32(opts: { min?: number; max?: number } = {}) {
  const min = opts.min ?? -INT32_MAX - 1;
  const max = opts.max ?? INT32_MAX;
  return z.pipe(
    z.pipe(
      z.union([z.number(), z.string().check(z.regex(/^-?\d+$/, 'must be an integer'))]),
      z.transform((v: number | string) => (typeof v === 'string' ? Number(v) : v)),
    ),
    z
      .number()
      .check(
        z.int('must be an integer'),
        z.minimum(min, `must be at least ${min}`),
        z.maximum(max, `must be at most ${max}`),
      ),
  );
}

/** A uuid string (path ids named `...Id`, spec "Conventions"). */
export const uuid = () => z.uuid('must be a uuid');

/** Boolean query parameter: `true`/`false` strings or JSON booleans. */
export const boolParam = () =>
  z.pipe(
    z.union([z.boolean(), z.enum(['true', 'false'])]),
    z.transform((v: boolean | 'true' | 'false') => v === true || v === 'true'),
  );

/** Optional, nullable string. */
export const optString = (max = 10_000) => z.nullish(z.string().check(z.maxLength(max)));

/**
 * A calendar date: `YYYY-MM-DD`, or an ISO 8601 date-time whose calendar-date part is kept as written
 * (key dates are calendar dates, not timestamps; no time-zone shift is applied).
 */
export const calendarDate = () =>
  z
    .pipe(
      z
        .string()
        .check(
          z.regex(
            /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/,
            'must be a date (YYYY-MM-DD) or ISO 8601 date-time',
          ),
        ),
      z.transform((v: string) => v.slice(0, 10)),
    )
    .check(z.refine((d: string) => isRealDate(d), 'is not a real calendar date'));

/** ISO 8601 date-time (or date). */
export const dateTime = () =>
  z.string().check(z.refine((v: string) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time'));

function isRealDate(d: string): boolean {
  const [y, m, day] = d.split('-').map(Number);
  const dt = new Date(Date.UTC(y, m - 1, day));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === day;
}

/**
 * Path parameters that are all uuids (spec "Conventions": path ids named `...Id`, and `id`), e.g.
 * `uuidPath('transactionId')`, `uuidPath('taskId', 'commentId')`.
 */
export function uuidPath<K extends string>(...names: K[]) {
  return z.object(Object.fromEntries(names.map((n) => [n, uuid()])) as { [P in K]: ReturnType<typeof uuid> });
}
