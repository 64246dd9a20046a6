/** `GET /api/v1/usage`: the calling key's call volume, daily breakdown, top operations and error rate (`days`, default 30). */
import type { OperationHandler } from '#http/context';
import { readUsage } from '#db/usage';

export const getUsage: OperationHandler = async ({ query }, { principal, now }) => ({
  body: { data: await readUsage(principal, query.days ?? 30, now.getTime()), keyId: principal.keyId },
});
