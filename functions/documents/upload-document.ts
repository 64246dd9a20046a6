/**
 * `POST /api/v1/documents`: a small PDF as base64 (`contentBase64`, at most 5,000,000 characters) stored
 * and, unless `extract` is false, its extraction started in one call. The job is created `queued` before
 * the file is stored, so its id is in the response; the upload's S3 notification (the same path as a
 * presigned upload) starts the workflow. Empty, non-PDF or oversized content is a 422 on
 * `fields.contentBase64` and nothing is stored.
 */
import type { OperationHandler } from '#http/context';
import { createDocument, documentView, markDocumentUploadFailed } from '#db/documents';
import { createJob, failJob } from '#db/extraction-jobs';
import { documentsBucket, putObject } from '#ports/blob-store';
import { FILE_PROBLEM_MESSAGES, pdfProblem, PDF_CONTENT_TYPE } from '#domain/documents';
import { ValidationError } from '#http/errors';
import { newDocument } from './create-document-upload-url.ts';

/** Stores the decoded PDF and returns `{documentId, jobId (null when extract is false), document}`. */
export const uploadDocument: OperationHandler = async ({ body }, { principal, now }) => {
  const bytes = Buffer.from(body.contentBase64 as string, 'base64');
  const problem = pdfProblem(bytes.length, bytes);
  if (problem) throw new ValidationError({ contentBase64: FILE_PROBLEM_MESSAGES[problem] });
  const doc = await createDocument(await newDocument(principal, body, bytes.length, now));
  const job = doc.extractOnUpload ? await createJob(principal.orgId, { documentId: doc.id, transactionId: doc.transactionId, bucket: documentsBucket(), key: doc.s3Key }, now) : undefined;
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
};
