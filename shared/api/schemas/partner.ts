/** Partner-tier request fields (spec "Partner organizations"): `orgId` is a plain string, not a uuid. */
import * as z from '#api/zod';

export const orgId = () => z.string().check(z.minLength(1), z.maxLength(200));
export const orgPath = () => z.object({ orgId: orgId() });
