/** `GET /api/v1/transactions`: a page of deals, most recently updated first (`q`, `status`, `page`, `pageSize`). */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32 } from '#api/params';
import { listTransactions as list } from '#db/transactions';
import { pageOf } from '#api/responses/common';
import { Transaction } from '#api/responses/deals';

export default defineOperation({
  operationId: 'listTransactions',
  method: 'GET',
  path: '/api/v1/transactions',
  access: 'read',
  summary: 'Deals, most recently updated first, filtered by text and status.',
  response: () => pageOf(Transaction),
  schemas: () => ({
    query: z.object({
      q: z.optional(z.string().check(z.maxLength(200))),
      status: z.optional(z.string().check(z.maxLength(100))),
      page: z._default(int32({ min: 1, max: 10_000 }), 1),
      pageSize: z._default(int32({ min: 1, max: 100 }), 25),
    }),
  }),
  example: { query: { q: 'live oak', pageSize: '10' } },
  handler: async ({ query }, { principal }) => ({
    body: await list(principal.orgId, query),
  }),
});
