/**
 * The StartOcr step (AWS) counts the uploaded PDF's pages before Textract is called (Textract bills per page):
 * a file over the page limit, or one pdf-lib cannot parse, ends the job without any Textract call. Textract is
 * mocked; the object is read from s3rver (the step reads with a presigned GET, no S3 client); the PDFs are real
 * (pdf-lib, test/support/pdf-fixtures.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { StartDocumentAnalysisCommand, TextractClient } from '@aws-sdk/client-textract';
import { ExtractionError } from '#domain/extraction/types';
import { DEFAULT_MAX_PAGES } from '#ports/ocr';
import { putObject, resetBlobStore } from '#ports/blob-store';
import { startLocalS3, type LocalS3 } from '#lib/local/s3-local';
import { resetTextractClient } from '#ports/ocr-textract';
import { startOcr } from '#functions/extraction-steps/start-ocr';
import { encryptedPdf, textPdf } from '../support/pdf-fixtures.ts';

const textractMock = mockClient(TextractClient);
const INPUT = { orgId: 'org-1', jobId: '0b6f3c1e-5d7a-4c1b-9d0e-2f4a6b8c0d1e', documentId: 'doc-1', bucket: 'unit-start-ocr', key: 'org/org-1/documents/doc-1/contract.pdf' };

const stored = (bytes: Uint8Array) => putObject(INPUT.key, bytes, 'application/pdf');

let s3: LocalS3;
let dir: string;
const savedEnv = { S3_ENDPOINT: process.env.S3_ENDPOINT, DOCUMENTS_BUCKET: process.env.DOCUMENTS_BUCKET };
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'start-ocr-'));
  s3 = await startLocalS3({ directory: dir, bucket: INPUT.bucket });
  process.env.S3_ENDPOINT = s3.endpoint;
  process.env.DOCUMENTS_BUCKET = s3.bucket;
});
afterAll(async () => {
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
  for (const [k, v] of Object.entries(savedEnv)) if (v === undefined) delete process.env[k];
  else process.env[k] = v;
});

async function refusal(p: Promise<unknown>): Promise<ExtractionError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(ExtractionError);
  return e as ExtractionError;
}

beforeEach(() => {
  textractMock.reset();
  resetBlobStore();
  resetTextractClient();
  textractMock.on(StartDocumentAnalysisCommand).resolves({ JobId: 'textract-job-1' });
});
afterAll(() => {
  textractMock.restore();
});

describe('StartOcr', () => {
  it('reads the uploaded object, then starts the analysis with the job id as idempotency token', async () => {
    await stored(await textPdf(11));

    expect(await startOcr(INPUT)).toEqual({ ocrJobId: 'textract-job-1' });
    expect(textractMock).toHaveReceivedCommandWith(StartDocumentAnalysisCommand, {
      DocumentLocation: { S3Object: { Bucket: INPUT.bucket, Name: INPUT.key } },
      ClientRequestToken: INPUT.jobId,
    });
  });

  it(`a PDF of exactly ${DEFAULT_MAX_PAGES} pages is analysed; one more page is too_many_pages with no Textract call`, async () => {
    await stored(await textPdf(DEFAULT_MAX_PAGES));
    await startOcr(INPUT);
    expect(textractMock).toHaveReceivedCommandTimes(StartDocumentAnalysisCommand, 1);

    textractMock.resetHistory();
    await stored(await textPdf(DEFAULT_MAX_PAGES + 1));
    const e = await refusal(startOcr(INPUT));

    expect(e.code).toBe('too_many_pages');
    expect(e.message).toContain(`${DEFAULT_MAX_PAGES + 1} pages`);
    expect(textractMock).toHaveReceivedCommandTimes(StartDocumentAnalysisCommand, 0);
  });

  it('a file pdf-lib cannot parse is corrupt_pdf with no Textract call', async () => {
    const valid = await textPdf(2);
    await stored(valid.subarray(0, 40)); // the header and little else

    expect((await refusal(startOcr(INPUT))).code).toBe('corrupt_pdf');
    expect(textractMock).toHaveReceivedCommandTimes(StartDocumentAnalysisCommand, 0);
  });

  it('an encrypted PDF is counted and left to Textract (an owner-password-only file opens without a password)', async () => {
    await stored(encryptedPdf('Owner only', '', 'owner-pw'));

    expect(await startOcr(INPUT)).toEqual({ ocrJobId: 'textract-job-1' });
    expect(textractMock).toHaveReceivedCommandTimes(StartDocumentAnalysisCommand, 1);
  });
});
