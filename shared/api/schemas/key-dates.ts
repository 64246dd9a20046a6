/** Key-date request fields (spec "Key date"). */
import * as z from '#api/zod';

/** Key-date type token: letters, digits, `_` and `-` (e.g. `ClosingDate`, `HOA_Docs_Due`). */
export const keyDateType = () =>
  z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'must be a key-date type token (letters, digits, _ or -)'));
