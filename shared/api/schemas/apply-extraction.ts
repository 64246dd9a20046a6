/** Request fields of applying an extraction (spec "Transactions", ApplyExtraction). */
import * as z from '#api/zod';
import { boundedRecord, jsonScalar } from '#api/schemas/free-form';
import { CONTRACT_FIELD_KINDS } from '#domain/apply-extraction';

/**
 * `overrides`: contract field name → value, at most one entry per contract field. Values are bounded JSON
 * (a scalar, or a list of at most 10 names for `buyers`, `sellers`, `addenda`); each is validated against its
 * field's kind, and unknown names refused, by `parseOverrides` (shared/domain/apply-extraction.ts).
 */
export const overrides = () =>
  boundedRecord(
    z.string().check(z.maxLength(64)),
    z.union([jsonScalar(500), z.array(z.string().check(z.maxLength(200))).check(z.maxLength(10))]),
    Object.keys(CONTRACT_FIELD_KINDS).length,
  );
