/** Filters of the template lists (spec "Templates and forms"; vocabularies not shown). */
import * as z from '#api/zod';

/** An optional filter value of at most 100 characters. */
export const filter = () => z.optional(z.string().check(z.maxLength(100)));
