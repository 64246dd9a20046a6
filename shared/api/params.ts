/**
 * Reusable zod building blocks for the manifest: int32 query parameters that accept digit strings
 * (spec "Conventions"), uuids, calendar dates and date-times (strict, shared/domain/iso-dates.ts), display
 * names and bounded nullable strings. Every string an operation accepts is bounded here or in its schema
 * (test/unit/schema-bounds.test.ts walks every operation to keep it so).
 */
import * as z from '#api/zod';
import { calendarDateOf, hasIsoDateShape, isIsoDateOrDateTime, MAX_DATE_TIME_LENGTH } from '#domain/iso-dates';

const INT32_MAX = 2_147_483_647;
const DATE_MESSAGE = 'must be a date (YYYY-MM-DD) or ISO 8601 date-time';
const DATE_TIME_MESSAGE = 'must be a real ISO 8601 date-time (YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH:MM]) or date, years 1900-2199';

/**
 * An int32 query/body value given as a number or a string of digits (spec: "Integer query parameters
 * (type int32) accept an integer or a string of digits"). Bounds are inclusive.
 */
export function int32(opts: { min?: number; max?: number } = {}) {
  const min = opts.min ?? -INT32_MAX - 1;
  const max = opts.max ?? INT32_MAX;
  return z.pipe(
    z.pipe(
      z.union([z.number(), z.string().check(z.maxLength(20, 'must be an integer of at most 20 characters'), z.regex(/^-?\d+$/, 'must be an integer'))]),
      // `+ 0` turns -0 into 0 (JSON allows `-0`; it is not a different integer).
      z.transform((v: number | string) => (typeof v === 'string' ? Number(v) : v) + 0),
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

/**
 * A uuid string (path ids named `...Id`, spec "Conventions"), lower-cased: RFC 9562 §4 reads hex digits
 * case-insensitively, and ids are stored lower case, so `0D3C…` finds the same item as `0d3c…`.
 */
export const uuid = () => z.uuid('must be a uuid').check(z.toLowerCase());

/** Boolean query parameter: `true`/`false` strings or JSON booleans. */
export const boolParam = () =>
  z.pipe(
    z.union([z.boolean(), z.enum(['true', 'false'])]),
    z.transform((v: boolean | 'true' | 'false') => v === true || v === 'true'),
  );

/** Optional, nullable string. */
export const optString = (max = 10_000) => z.nullish(z.string().check(z.maxLength(max)));

/**
 * A calendar date: `YYYY-MM-DD`, or an ISO 8601 / RFC 3339 date-time whose calendar-date part is kept as
 * written (key dates are calendar dates, not timestamps; no time-zone shift is applied). Impossible values
 * (`2027-02-30`, `T25:00`) are refused; accepted forms in shared/domain/iso-dates.ts.
 * @returns (output) the `YYYY-MM-DD` part
 */
export const calendarDate = () =>
  z.pipe(
    // Two messages: the form is wrong, or the form is right but the day or time does not exist.
    z.string().check(
      z.maxLength(MAX_DATE_TIME_LENGTH, DATE_MESSAGE),
      z.refine(hasIsoDateShape, DATE_MESSAGE),
      z.refine((v: string) => !hasIsoDateShape(v) || calendarDateOf(v) !== undefined, 'is not a real calendar date'),
    ),
    z.transform((v: string) => calendarDateOf(v)!),
  );

/** An ISO 8601 / RFC 3339 date-time (or date), kept as written; impossible values refused (shared/domain/iso-dates.ts). */
export const dateTime = () =>
  z.string().check(z.maxLength(MAX_DATE_TIME_LENGTH, DATE_TIME_MESSAGE), z.refine(isIsoDateOrDateTime, DATE_TIME_MESSAGE));

/**
 * Path parameters that are all uuids (spec "Conventions": path ids named `...Id`, and `id`), e.g.
 * `uuidPath('transactionId')`, `uuidPath('taskId', 'commentId')`.
 */
export function uuidPath<K extends string>(...names: K[]) {
  return z.object(Object.fromEntries(names.map((n) => [n, uuid()])) as { [P in K]: ReturnType<typeof uuid> });
}
