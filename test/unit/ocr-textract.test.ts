/**
 * Textract adapter pieces against a mocked TextractClient: start (text detection, idempotency token, document
 * errors mapped), one result page (statuses mapped; FAILED → ocr_failed), and collecting a job across pages.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import {
  BadDocumentException,
  DocumentTooLargeException,
  GetDocumentTextDetectionCommand,
  InvalidJobIdException,
  StartDocumentTextDetectionCommand,
  TextractClient,
  ThrottlingException,
  UnsupportedDocumentException,
  type Block,
} from '@aws-sdk/client-textract';
import { ExtractionError } from '#domain/extraction/types';
import {
  collectAll,
  getAnalysisPage,
  resetTextractClient,
  startAnalysis,
  TextractJobInProgressError,
} from '#ports/ocr-textract';

const textractMock = mockClient(TextractClient);

beforeEach(() => {
  textractMock.reset();
  resetTextractClient();
});
afterAll(() => textractMock.restore());

const box = { Left: 0.1, Top: 0.1, Width: 0.2, Height: 0.02 };
const geometry = { BoundingBox: box, Polygon: [{ X: 0.1, Y: 0.1 }, { X: 0.3, Y: 0.1 }, { X: 0.3, Y: 0.12 }, { X: 0.1, Y: 0.12 }] };
const line = (page: number, text: string): Block => ({ BlockType: 'LINE', Id: `l-${page}-${text}`, Page: page, Text: text, Confidence: 99.1, Geometry: geometry });

async function rejection(p: Promise<unknown>): Promise<ExtractionError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ExtractionError);
    return e as ExtractionError;
  }
  throw new Error('expected a rejection');
}

describe('startAnalysis', () => {
  it('starts text detection on the S3 object and returns the JobId', async () => {
    textractMock.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
    expect(await startAnalysis('uploads', 'org/doc.pdf', { clientRequestToken: 'extraction-123', jobTag: 'doc-1' })).toBe('job-1');
    expect(textractMock).toHaveReceivedCommandWith(StartDocumentTextDetectionCommand, {
      DocumentLocation: { S3Object: { Bucket: 'uploads', Name: 'org/doc.pdf' } },
      ClientRequestToken: 'extraction-123',
      JobTag: 'doc-1',
    });
  });

  it('maps document errors to extraction codes and passes throttling through for retries', async () => {
    const throttled = new ThrottlingException({ message: 'slow down', $metadata: {} });
    textractMock
      .on(StartDocumentTextDetectionCommand)
      .rejectsOnce(new BadDocumentException({ message: 'bad', $metadata: {} }))
      .rejectsOnce(new DocumentTooLargeException({ message: 'too big', $metadata: {} }))
      .rejectsOnce(new UnsupportedDocumentException({ message: 'nope', $metadata: {} }))
      .rejectsOnce(throttled)
      .resolves({});
    expect((await rejection(startAnalysis('b', 'k'))).code).toBe('corrupt_pdf');
    expect((await rejection(startAnalysis('b', 'k'))).code).toBe('file_too_large');
    expect((await rejection(startAnalysis('b', 'k'))).code).toBe('not_pdf');
    await expect(startAnalysis('b', 'k')).rejects.toBe(throttled);
    expect((await rejection(startAnalysis('b', 'k'))).message).toMatch(/no JobId/);
  });
});

describe('getAnalysisPage', () => {
  it('maps IN_PROGRESS, SUCCEEDED and PARTIAL_SUCCESS', async () => {
    textractMock
      .on(GetDocumentTextDetectionCommand)
      .resolvesOnce({ JobStatus: 'IN_PROGRESS' })
      .resolvesOnce({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 2 }, Blocks: [line(1, 'a')], NextToken: 't2' })
      .resolvesOnce({
        JobStatus: 'PARTIAL_SUCCESS',
        Blocks: [line(2, 'b')],
        Warnings: [{ ErrorCode: 'PAGES_FAILED', Pages: [3, 4] }],
      });
    expect(await getAnalysisPage('j')).toEqual({ status: 'in_progress', blocks: [], pageCount: undefined, warnings: [] });
    expect(await getAnalysisPage('j')).toEqual({ status: 'succeeded', blocks: [line(1, 'a')], nextToken: 't2', pageCount: 2, warnings: [] });
    expect(await getAnalysisPage('j', 't2')).toEqual({
      status: 'partial_success',
      blocks: [line(2, 'b')],
      nextToken: undefined,
      pageCount: undefined,
      warnings: ['PAGES_FAILED on pages 3, 4'],
    });
    expect(textractMock).toHaveReceivedNthCommandWith(GetDocumentTextDetectionCommand, 3, { JobId: 'j', NextToken: 't2', MaxResults: 1000 });
  });

  it('FAILED → ocr_failed with Textract’s status message', async () => {
    textractMock.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: 'FAILED', StatusMessage: 'Request has unsupported document format' });
    const e = await rejection(getAnalysisPage('job-9'));
    expect(e.code).toBe('ocr_failed');
    expect(e.message).toMatch(/job-9 failed: Request has unsupported document format/);
  });

  it('an unknown or expired job id → ocr_failed', async () => {
    textractMock.on(GetDocumentTextDetectionCommand).rejects(new InvalidJobIdException({ message: 'Invalid JobId', $metadata: {} }));
    expect((await rejection(getAnalysisPage('gone'))).code).toBe('ocr_failed');
  });
});

describe('collectAll', () => {
  it('follows NextToken over 3 result pages and returns an OcrResult', async () => {
    textractMock
      .on(GetDocumentTextDetectionCommand, { JobId: 'job-3' })
      .resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 3 }, Blocks: [line(1, 'first')], NextToken: 'p2' });
    textractMock
      .on(GetDocumentTextDetectionCommand, { JobId: 'job-3', NextToken: 'p2' })
      .resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 3 }, Blocks: [line(2, 'second')], NextToken: 'p3' });
    textractMock
      .on(GetDocumentTextDetectionCommand, { JobId: 'job-3', NextToken: 'p3' })
      .resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 3 }, Blocks: [line(3, 'third'), line(3, 'fourth')] });
    const r = await collectAll('job-3');
    expect(r.pageCount).toBe(3);
    expect(r.blocks.map((b) => b.Text)).toEqual(['first', 'second', 'third', 'fourth']);
    expect(r.methods).toEqual({ 1: 'textract', 2: 'textract', 3: 'textract' });
    expect(r.warnings).toEqual([]);
    expect(textractMock).toHaveReceivedCommandTimes(GetDocumentTextDetectionCommand, 3);
  });

  it('FAILED on any page → ocr_failed', async () => {
    textractMock
      .on(GetDocumentTextDetectionCommand)
      .resolvesOnce({ JobStatus: 'SUCCEEDED', Blocks: [line(1, 'a')], NextToken: 'p2' })
      .resolvesOnce({ JobStatus: 'FAILED', StatusMessage: 'internal' });
    expect((await rejection(collectAll('job-f'))).code).toBe('ocr_failed');
  });

  it('a running job → TextractJobInProgressError (retry later), not a document error', async () => {
    textractMock.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: 'IN_PROGRESS' });
    await expect(collectAll('job-r')).rejects.toBeInstanceOf(TextractJobInProgressError);
  });

  it('too many pages → too_many_pages; a repeated NextToken → ocr_failed; page count falls back to the blocks', async () => {
    textractMock.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 70 }, Blocks: [] });
    expect((await rejection(collectAll('big', { maxPages: 60 }))).code).toBe('too_many_pages');

    textractMock.reset();
    textractMock.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: 'SUCCEEDED', Blocks: [line(1, 'x')], NextToken: 'same' });
    expect((await rejection(collectAll('loop'))).code).toBe('ocr_failed');

    textractMock.reset();
    textractMock.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: 'PARTIAL_SUCCESS', Blocks: [line(1, 'x'), line(2, 'y')], Warnings: [{ ErrorCode: 'PAGES_FAILED', Pages: [3] }] });
    const r = await collectAll('partial');
    expect(r.pageCount).toBe(2);
    expect(r.warnings).toEqual(['PAGES_FAILED on pages 3']);
  });
});
