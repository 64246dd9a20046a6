/**
 * `POST /api/v1/documents`: a small PDF as base64 (`contentBase64`, at most 5,000,000 characters) stored
 * and, unless `extract` is false, its extraction started in one call. The job is created `queued` before
 * the file is stored, so its id is in the response; the upload's S3 notification (the same path as a
 * presigned upload) starts the workflow. Empty, non-PDF or oversized content is a 422 on
 * `fields.contentBase64` and nothing is stored.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuid } from '#api/params';
import { contentType, documentType, fileName } from '#api/schemas/documents';
import { MAX_INLINE_BASE64_CHARS } from '#domain/documents';
import { createDocument, documentView, markDocumentUploadFailed } from '#db/documents';
import { createJob } from '#db/extraction-jobs';
import { failJob } from '#use-cases/finish-extraction';
import { documentsBucket, putObject } from '#ports/blob-store';
import { FILE_PROBLEM_MESSAGES, pdfProblem, PDF_CONTENT_TYPE } from '#domain/documents';
import { InvalidInput } from '#domain/errors';
import { newDocument } from '#use-cases/new-document';
import { uploadResponse } from '#api/responses/documents';

export default defineOperation({
  operationId: 'uploadDocument',
  method: 'POST',
  path: '/api/v1/documents',
  access: 'draft',
  summary: 'Uploads a small file as base64 and starts its extraction in one call.',
  response: () => uploadResponse(),
  designedHere: true,
  uses: ['documents:write'],
  schemas: () => ({
    body: z.object({
      fileName: fileName(),
      contentType: contentType(),
      contentBase64: z
        .base64('must be base64 (RFC 4648, no line breaks)')
        .check(
          z.minLength(1, 'is empty: a document has at least one byte'),
          z.maxLength(
            MAX_INLINE_BASE64_CHARS,
            `must be at most ${MAX_INLINE_BASE64_CHARS} characters (about 3.75 MB); upload larger files with POST /api/v1/documents/upload-url`,
          ),
        ),
      transactionId: z.nullish(uuid()),
      documentType: z.nullish(documentType()),
      /** Start the extraction (default true). */
      extract: z._default(z.boolean(), true),
    }),
  }),
  example: { body: { fileName: 'Amendment.pdf', contentBase64: 'JVBERi0xLjQKJcfsj6IKJSVFT0YK', extract: false } },
  /** Stores the decoded PDF and returns `{documentId, jobId (null when extract is false), document}`. */
  handler: async ({ body }, { principal, now }) => {
    const bytes = Buffer.from(body.contentBase64 as string, 'base64');
    const problem = pdfProblem(bytes.length, bytes);
    if (problem) throw new InvalidInput({ contentBase64: FILE_PROBLEM_MESSAGES[problem] });
    const doc = await createDocument(await newDocument(principal, body, bytes.length, now));
    const job = doc.extractOnUpload
      ? await createJob(
          principal.orgId,
          { documentId: doc.id, transactionId: doc.transactionId, bucket: documentsBucket(), key: doc.s3Key },
          now,
        )
      : undefined;
    try {
      await putObject(doc.s3Key, bytes, PDF_CONTENT_TYPE);
    } catch (err) {
      const error = { code: 'internal_error' as const, message: 'The file could not be stored; upload it again.' };
      if (job) await failJob(principal.orgId, job.jobId, error, now);
      await markDocumentUploadFailed(doc, error, bytes.length, now);
      throw err;
    }
    return {
      body: {
        data: {
          documentId: doc.id,
          jobId: job?.jobId ?? null,
          document: documentView({ ...doc, latestJobId: job?.jobId ?? null, extractionState: job ? 'queued' : 'none' }),
        },
      },
    };
  },
});
