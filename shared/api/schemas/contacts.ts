/** Writable contact fields (designed here; the spec shows no record fields). */
import * as z from '#api/zod';

export const contactFields = () => ({
  firstName: z.nullish(z.string().check(z.trim(), z.maxLength(100))),
  lastName: z.nullish(z.string().check(z.trim(), z.maxLength(100))),
  email: z.nullish(z.email('must be an email address').check(z.maxLength(320))),
  phone: z.nullish(z.string().check(z.trim(), z.maxLength(32))),
  company: z.nullish(z.string().check(z.trim(), z.maxLength(200))),
  /** Person or company; the vocabulary is not shown in the spec. */
  type: z.nullish(z.string().check(z.trim(), z.maxLength(50))),
});
