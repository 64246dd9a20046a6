/**
 * Textract adapter pieces against a mocked TextractClient: start (document analysis with FORMS and QUERIES, idempotency token,
 * job tag, document errors mapped), one result page (statuses mapped; FAILED → ocr_failed), and collecting a job
 * across pages with every block type kept (SELECTION_ELEMENT checkboxes included).
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import {
  BadDocumentException,
  DocumentTooLargeException,
  GetDocumentAnalysisCommand,
  InvalidJobIdException,
  StartDocumentAnalysisCommand,
  TextractClient,
  ThrottlingException,
  UnsupportedDocumentException,
  type Block,
} from '@aws-sdk/client-textract';
import { buildBlocks, row } from '#domain/extraction/block-builder';
import { extractContract } from '#domain/extraction/extract';
import { ExtractionError } from '#domain/extraction/types';
import {
  collectAll,
  getAnalysisPage,
  resetTextractClient,
  startAnalysis,
  TEXTRACT_QUERIES_CONFIG,
  TextractJobInProgressError,
} from '#ports/ocr-textract';
import { GENERIC_QUERIES } from '#domain/extraction/queries';

const textractMock = mockClient(TextractClient);

beforeEach(() => {
  textractMock.reset();
  resetTextractClient();
});
afterAll(() => textractMock.restore());

const box = { Left: 0.1, Top: 0.1, Width: 0.2, Height: 0.02 };
const geometry = { BoundingBox: box, Polygon: [{ X: 0.1, Y: 0.1 }, { X: 0.3, Y: 0.1 }, { X: 0.3, Y: 0.12 }, { X: 0.1, Y: 0.12 }] };
const line = (page: number, text: string): Block => ({ BlockType: 'LINE', Id: `l-${page}-${text}`, Page: page, Text: text, Confidence: 99.1, Geometry: geometry });
/** A checkbox as FORMS analysis returns it. */
const checkbox = (page: number, status: 'SELECTED' | 'NOT_SELECTED'): Block => ({
  BlockType: 'SELECTION_ELEMENT',
  Id: `s-${page}-${status}`,
  Page: page,
  SelectionStatus: status,
  Confidence: 98.7,
  Geometry: geometry,
});

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
  it('starts document analysis with FORMS and QUERIES on the S3 object and returns the JobId', async () => {
    textractMock.on(StartDocumentAnalysisCommand).resolves({ JobId: 'job-1' });
    expect(await startAnalysis('uploads', 'org/doc.pdf', { clientRequestToken: 'extraction-123', jobTag: 'doc-1' })).toBe('job-1');
    expect(textractMock).toHaveReceivedCommandTimes(StartDocumentAnalysisCommand, 1);
    // The whole input, so nothing else (TABLES, LAYOUT, an adapter) is requested and paid for.
    expect(textractMock.commandCalls(StartDocumentAnalysisCommand)[0].args[0].input).toEqual({
      DocumentLocation: { S3Object: { Bucket: 'uploads', Name: 'org/doc.pdf' } },
      FeatureTypes: ['FORMS', 'QUERIES'],
      QueriesConfig: {
        Queries: GENERIC_QUERIES.map((q) => ({ Text: q.text, Alias: q.alias, Pages: ['*'] })),
      },
      ClientRequestToken: 'extraction-123',
      JobTag: 'doc-1',
    });
  });

  it('passes the object version when given, and omits the token and tag when not', async () => {
    textractMock.on(StartDocumentAnalysisCommand).resolves({ JobId: 'job-2' });
    await startAnalysis('uploads', 'org/doc.pdf', { version: 'v7' });
    expect(textractMock.commandCalls(StartDocumentAnalysisCommand)[0].args[0].input).toEqual({
      DocumentLocation: { S3Object: { Bucket: 'uploads', Name: 'org/doc.pdf', Version: 'v7' } },
      FeatureTypes: ['FORMS', 'QUERIES'],
      QueriesConfig: TEXTRACT_QUERIES_CONFIG,
    });
  });

  it('maps document errors to extraction codes and passes throttling through for retries', async () => {
    const throttled = new ThrottlingException({ message: 'slow down', $metadata: {} });
    textractMock
      .on(StartDocumentAnalysisCommand)
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
      .on(GetDocumentAnalysisCommand)
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
    expect(textractMock).toHaveReceivedNthCommandWith(GetDocumentAnalysisCommand, 3, { JobId: 'j', NextToken: 't2', MaxResults: 1000 });
  });

  it('FAILED → ocr_failed with Textract’s status message', async () => {
    textractMock.on(GetDocumentAnalysisCommand).resolves({ JobStatus: 'FAILED', StatusMessage: 'Request has unsupported document format' });
    const e = await rejection(getAnalysisPage('job-9'));
    expect(e.code).toBe('ocr_failed');
    expect(e.message).toMatch(/job-9 failed: Request has unsupported document format/);
  });

  it('an unknown or expired job id → ocr_failed', async () => {
    textractMock.on(GetDocumentAnalysisCommand).rejects(new InvalidJobIdException({ message: 'Invalid JobId', $metadata: {} }));
    expect((await rejection(getAnalysisPage('gone'))).code).toBe('ocr_failed');
  });
});

describe('collectAll', () => {
  it('follows NextToken over 3 result pages and returns an OcrResult with every block, checkboxes included', async () => {
    const keyValue: Block = { BlockType: 'KEY_VALUE_SET', Id: 'kv-2', Page: 2, EntityTypes: ['VALUE'], Confidence: 90, Geometry: geometry };
    textractMock
      .on(GetDocumentAnalysisCommand, { JobId: 'job-3' })
      .resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 3 }, Blocks: [line(1, 'first'), checkbox(1, 'SELECTED')], NextToken: 'p2' });
    textractMock
      .on(GetDocumentAnalysisCommand, { JobId: 'job-3', NextToken: 'p2' })
      .resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 3 }, Blocks: [line(2, 'second'), keyValue, checkbox(2, 'NOT_SELECTED')], NextToken: 'p3' });
    textractMock
      .on(GetDocumentAnalysisCommand, { JobId: 'job-3', NextToken: 'p3' })
      .resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 3 }, Blocks: [line(3, 'third'), line(3, 'fourth')] });
    const r = await collectAll('job-3');
    expect(r.pageCount).toBe(3);
    expect(r.blocks.filter((b) => b.BlockType === 'LINE').map((b) => b.Text)).toEqual(['first', 'second', 'third', 'fourth']);
    expect(r.blocks).toEqual([
      line(1, 'first'),
      checkbox(1, 'SELECTED'),
      line(2, 'second'),
      keyValue,
      checkbox(2, 'NOT_SELECTED'),
      line(3, 'third'),
      line(3, 'fourth'),
    ]);
    expect(r.methods).toEqual({ 1: 'textract', 2: 'textract', 3: 'textract' });
    expect(r.warnings).toEqual([]);
    expect(textractMock).toHaveReceivedCommandTimes(GetDocumentAnalysisCommand, 3);
    expect(textractMock).toHaveReceivedNthCommandWith(GetDocumentAnalysisCommand, 1, { JobId: 'job-3', MaxResults: 1000 });
    expect(textractMock).toHaveReceivedNthCommandWith(GetDocumentAnalysisCommand, 2, { JobId: 'job-3', NextToken: 'p2', MaxResults: 1000 });
    expect(textractMock).toHaveReceivedNthCommandWith(GetDocumentAnalysisCommand, 3, { JobId: 'job-3', NextToken: 'p3', MaxResults: 1000 });
    // What CollectBlocks writes to S3 and ExtractFields reads back: the checkboxes survive the JSON round trip.
    const stored = JSON.parse(JSON.stringify(r)) as typeof r;
    expect(stored.blocks.filter((b) => b.BlockType === 'SELECTION_ELEMENT').map((b) => [b.Page, b.SelectionStatus])).toEqual([
      [1, 'SELECTED'],
      [2, 'NOT_SELECTED'],
    ]);
  });

  it('FAILED on any page → ocr_failed', async () => {
    textractMock
      .on(GetDocumentAnalysisCommand)
      .resolvesOnce({ JobStatus: 'SUCCEEDED', Blocks: [line(1, 'a')], NextToken: 'p2' })
      .resolvesOnce({ JobStatus: 'FAILED', StatusMessage: 'internal' });
    expect((await rejection(collectAll('job-f'))).code).toBe('ocr_failed');
  });

  it('a running job → TextractJobInProgressError (retry later), not a document error', async () => {
    textractMock.on(GetDocumentAnalysisCommand).resolves({ JobStatus: 'IN_PROGRESS' });
    await expect(collectAll('job-r')).rejects.toBeInstanceOf(TextractJobInProgressError);
  });

  it('too many pages → too_many_pages; a repeated NextToken → ocr_failed; page count falls back to the blocks', async () => {
    textractMock.on(GetDocumentAnalysisCommand).resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 70 }, Blocks: [] });
    expect((await rejection(collectAll('big', { maxPages: 60 }))).code).toBe('too_many_pages');

    textractMock.reset();
    textractMock.on(GetDocumentAnalysisCommand).resolves({ JobStatus: 'SUCCEEDED', Blocks: [line(1, 'x')], NextToken: 'same' });
    expect((await rejection(collectAll('loop'))).code).toBe('ocr_failed');

    textractMock.reset();
    textractMock.on(GetDocumentAnalysisCommand).resolves({ JobStatus: 'PARTIAL_SUCCESS', Blocks: [line(1, 'x'), line(2, 'y')], Warnings: [{ ErrorCode: 'PAGES_FAILED', Pages: [3] }] });
    const r = await collectAll('partial');
    expect(r.pageCount).toBe(2);
    expect(r.warnings).toEqual(['PAGES_FAILED on pages 3']);
  });
});

describe('Textract analysis → stored OcrResult → extractContract', () => {
  it('a SELECTED checkbox split from its text across result pages still decides ¶3B', async () => {
    // Page 1 of a TREC 20-18 as analysis returns it: text with empty "q" boxes, and the checkbox states.
    const text = buildBlocks({
      1: [
        row(0.064, [0.199, 'ONE TO FOUR FAMILY RESIDENTIAL CONTRACT (RESALE)']),
        row(0.63, [0.102, 'B. Sum of all financing described in the attached:'], [0.512, 'q'], [0.551, 'Third Party Financing Addendum,']),
        row(0.648, [0.121, 'q'], [0.16, 'Loan Assumption Addendum,'], [0.406, 'q'], [0.445, 'Seller Financing Addendum']),
        row(0.962, [0.806, 'TREC NO. 20-18']),
      ],
    });
    const at = (left: number, top: number, status: 'SELECTED' | 'NOT_SELECTED'): Block => ({
      ...checkbox(1, status),
      Id: `s-${left}`,
      Geometry: { BoundingBox: { Left: left, Top: top, Width: 0.012, Height: 0.011 } },
    });
    const boxes = [at(0.512, 0.63, 'NOT_SELECTED'), at(0.121, 0.648, 'NOT_SELECTED'), at(0.406, 0.648, 'SELECTED')];
    textractMock
      .on(GetDocumentAnalysisCommand, { JobId: 'trec' })
      .resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 1 }, Blocks: text, NextToken: 'p2' });
    textractMock
      .on(GetDocumentAnalysisCommand, { JobId: 'trec', NextToken: 'p2' })
      .resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 1 }, Blocks: boxes });
    // The blocks file round trip (functions/extraction-steps/blocks.ts stores the OcrResult as JSON).
    const stored = JSON.parse(JSON.stringify(await collectAll('trec'))) as Awaited<ReturnType<typeof collectAll>>;
    expect(stored.blocks).toHaveLength(text.length + boxes.length);
    const r = extractContract(stored);
    expect(r.formType).toBe('TREC 20-18');
    expect(r.fields.financingType.value).toBe('seller_financing');
    // Without the checkbox blocks the same text reads no ¶3B box; with no ¶3A cash portion equal to the price
    // either, nothing says the sale is cash: the financing type is left empty, never guessed.
    expect(extractContract({ ...stored, blocks: text }).fields.financingType.value).toBeNull();
  });
});

describe('Textract query answers on an unrecognized form (QUERIES → QUERY / QUERY_RESULT blocks)', () => {
  /** A QUERY block with its QUERY_RESULT answer, as GetDocumentAnalysis returns them. */
  const answer = (alias: string, text: string, confidence: number, top: number): Block[] => [
    { BlockType: 'QUERY', Id: `q-${alias}`, Page: 1, Query: { Text: alias, Alias: alias }, Relationships: [{ Type: 'ANSWER', Ids: [`a-${alias}`] }] },
    { BlockType: 'QUERY_RESULT', Id: `a-${alias}`, Page: 1, Text: text, Confidence: confidence, Geometry: { BoundingBox: { Left: 0.5, Top: top, Width: 0.2, Height: 0.012 } } },
  ];
  // A form the extractor does not know: captions without colons in a table, values the local reader cannot tie to them.
  const text = buildBlocks({
    1: [
      row(0.05, [0.3, 'PURCHASE AND SALE AGREEMENT']),
      row(0.1, [0.08, 'Purchase Price: $389,000.00']),
      row(0.2, [0.08, 'The transaction shall be consummated on a date agreed in writing.']),
      row(0.3, [0.5, 'October 17, 2025']),
    ],
  });

  async function collect(blocks: Block[]) {
    textractMock.on(GetDocumentAnalysisCommand, { JobId: 'q' }).resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 1 }, Blocks: blocks });
    return JSON.parse(JSON.stringify(await collectAll('q'))) as Awaited<ReturnType<typeof collectAll>>;
  }

  it('fills a field the local reader could not, citing the answer’s page, text and box, confidence capped at 0.75', async () => {
    const r = extractContract(await collect([...text, ...answer('CLOSING_DATE', 'October 17, 2025', 91, 0.3)]));
    expect(r.formType).toBe('generic');
    expect(r.fields.closingDate.value).toBe('2025-10-17');
    expect(r.fields.closingDate.citations).toEqual([{ page: 1, text: 'October 17, 2025', boundingBox: { left: 0.5, top: 0.3, width: 0.2, height: 0.012 } }]);
    expect(r.fields.closingDate.confidence).toBeLessThanOrEqual(0.75);
    expect(r.fields.closingDate.confidence).toBeGreaterThan(0.5);
    // Without the answer the same text gives no closing date.
    expect(extractContract({ ...(await collect(text)) }).fields.closingDate.value).toBeNull();
  });

  it('confirms a value the local reader found (both cited) and leaves a disagreement empty with a warning', async () => {
    const agree = extractContract(await collect([...text, ...answer('PURCHASE_PRICE', '$389,000.00', 95, 0.1)]));
    expect(agree.fields.salesPriceTotal.value).toBe(389000);
    expect(agree.fields.salesPriceTotal.citations).toHaveLength(2);
    const disagree = extractContract(await collect([...text, ...answer('PURCHASE_PRICE', '$398,000.00', 95, 0.1)]));
    expect(disagree.fields.salesPriceTotal.value).toBeNull();
    expect(disagree.fields.salesPriceTotal.warnings[0]).toMatch(/^conflicting values: '\$389,000.00' \(p1\) vs '\$398,000.00' \(p1\)/);
  });

  it('ignores low-confidence and implausible answers, with a warning', async () => {
    const r = extractContract(await collect([...text, ...answer('BUYERS', 'Buyer acknowledges Listing Firm', 88, 0.4), ...answer('SELLERS', 'Dana Ruiz', 31, 0.45)]));
    expect(r.fields.buyers.value).toBeNull();
    expect(r.fields.sellers.value).toBeNull();
    expect(r.warnings).toEqual(
      expect.arrayContaining([
        "Textract query BUYERS: answer 'Buyer acknowledges Listing Firm' is not a plausible names; not used",
        "Textract query SELLERS: answer 'Dana Ruiz' below 50% confidence; not used",
      ]),
    );
  });

  it('is not used on a recognized form, whose rules decide', async () => {
    const trec = buildBlocks({ 1: [row(0.064, [0.199, 'ONE TO FOUR FAMILY RESIDENTIAL CONTRACT (RESALE)']), row(0.962, [0.806, 'TREC NO. 20-18'])] });
    const r = extractContract(await collect([...trec, ...answer('PURCHASE_PRICE', '$398,000.00', 99, 0.1)]));
    expect(r.formType).toBe('TREC 20-18');
    expect(r.fields.salesPriceTotal.value).toBeNull();
  });
});
