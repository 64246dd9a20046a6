/**
 * Display names and file names: trimmed, Unicode NFC-normalised (UAX #15), so the same name typed on two
 * systems compares equal, and refused when they hold control characters (C0, DEL, C1, U+2028/U+2029) or
 * bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), which let a name display as something
 * else (`invoice\u202Efdp.exe` shows as `invoiceexe.pdf`; Unicode TR #36 §2.1, CVE-2021-42574).
 */
import * as z from '#api/zod';

const UNSAFE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** True when `name` holds a control or bidirectional-override character. */
export const hasUnsafeNameCharacter = (name: string): boolean => UNSAFE.test(name);

/**
 * A display name of 1 to `max` characters (counted after trimming and NFC normalisation).
 * @returns (output) the trimmed NFC form
 */
export const displayName = (max: number) =>
  z.string().check(
    z.overwrite((v: string) => v.normalize('NFC').trim()),
    z.minLength(1),
    z.maxLength(max),
    z.refine((v: string) => !hasUnsafeNameCharacter(v), 'must not contain control characters or bidirectional overrides'),
  );

/** A stored file name: a display name of at most 255 characters (common file-system limit), no path separators, not `.` or `..`. */
export const fileName = () =>
  displayName(255).check(
    z.regex(/^[^/\\]+$/, 'must not contain path separators'),
    z.refine((v: string) => v !== '.' && v !== '..', 'must be a file name, not . or ..'),
  );
