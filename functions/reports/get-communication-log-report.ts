/**
 * `GET /api/v1/transactions/{transactionId}/reports/communication-log`: the deal's communications over `from`–`to`
 * as JSON (inline), PDF, or ZIP with the PDF, the JSON and the documents the messages carried. PDF and ZIP are stored
 * (Lambda answers at most 6 MB) and answered with a download URL valid 15 minutes.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { communicationLogResponse } from '#api/responses/messaging';
import { dateTime, uuidPath } from '#api/params';
import { communicationLogReport } from '#use-cases/messaging/communication-log';

export default defineOperation({
  operationId: 'getCommunicationLogReport',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/reports/communication-log',
  access: 'read',
  summary: "Report of the deal's communications as PDF, ZIP with documents, or JSON.",
  uses: ['reports:build'],
  schemas: () => ({
    path: uuidPath('transactionId'),
    query: z.object({
      format: z.optional(z.string().check(z.maxLength(20))),
      from: z.optional(dateTime()),
      to: z.optional(dateTime()),
    }),
  }),
  example: { query: { format: 'json', from: '2026-01-01' } },
  response: communicationLogResponse,
  responseDescription:
    'Always `application/json`. `format=json` (default): the log inline (`CommunicationLog`). `format=pdf` / `zip`: a link to the stored file ' +
    '(`CommunicationLogFile`), whose `GET url` (valid 15 minutes) answers `application/pdf` or `application/zip` (the PDF, the JSON log and the ' +
    'documents the messages carried); `contentType` names it. A Lambda response holds at most 6 MB, so the file is never in this body.',
  /**
   * `format=json` (default): `{data: {format, transaction, from, to, generatedAt, messageCount, messages}}`;
   * `pdf` / `zip`: `{data: {format, fileName, contentType, sizeBytes, url, method: "GET", expiresAt, messageCount, documentCount, from, to, generatedAt}}`.
   */
  handler: async ({ path, query }, { principal, now }) => ({ body: { data: await communicationLogReport(principal, path.transactionId, query, now) } }),
});
