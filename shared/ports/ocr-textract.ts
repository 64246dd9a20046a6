/**
 * The AWS OCR adapter: the Amazon Textract calls the extraction state machine's tasks make (start → poll →
 * collect). Textract's async API reads the PDF from S3, so this is not an `OcrAdapter.analyze(bytes)`; the
 * local adapter's `inspectPdf` can validate the bytes (size, encryption, page count) before a job is started.
 *
 * API choice: asynchronous document analysis (`StartDocumentAnalysis` / `GetDocumentAnalysis`) with
 * `FeatureTypes: ['FORMS', 'QUERIES']`, not text detection. A TREC 20-18 contract's terms live in checkboxes (¶3B
 * financing type, ¶6C survey option, ¶6E(2) HOA, ¶22 addenda), and only FORMS analysis returns them, as
 * SELECTION_ELEMENT blocks with `SelectionStatus` SELECTED / NOT_SELECTED; the extractor reads those before any
 * check glyph in the text (shared/domain/extraction/lines.ts `selectionElements`). QUERIES asks the generic
 * questions of shared/domain/extraction/queries.ts (closing date, price, Effective Date, parties, earnest money,
 * escrow agent, address) on every page; the answers (QUERY / QUERY_RESULT blocks) are used only for forms the
 * extractor does not recognize. The form is not known when analysis starts, so every document pays for them.
 * Results keep every block type (LINE, WORD, SELECTION_ELEMENT, KEY_VALUE_SET, QUERY, QUERY_RESULT, PAGE). Cost
 * at list price: FORMS US$0.05 + QUERIES US$0.015 per page, about US$0.72 per 11-page contract (text detection
 * alone would be US$0.0015 per page but reads neither checkboxes nor answers questions).
 */
import {
  GetDocumentAnalysisCommand,
  StartDocumentAnalysisCommand,
  TextractClient,
  type Block,
  type FeatureType,
  type GetDocumentAnalysisResponse,
} from '@aws-sdk/client-textract';
import { ExtractionError, type OcrMethod, type OcrResult } from '#domain/extraction/types';
import { GENERIC_QUERIES } from '#domain/extraction/queries';
import { assertPageCount } from '#ports/ocr';
import { traced } from '#observability/powertools';
import { config } from '#ports/config';

let client: TextractClient | undefined;

/** The Textract client, created once per process (`TEXTRACT_ENDPOINT` overrides the endpoint, e.g. a stub), captured by the Tracer when tracing is on. */
export function textract(): TextractClient {
  if (!client) {
    const endpoint = config.textractEndpoint;
    client = traced(new TextractClient(endpoint ? { endpoint } : {}));
  }
  return client;
}

/** Drops the cached client (tests switching endpoints or mocks). */
export function resetTextractClient(): void {
  client = undefined;
}

/** Options of {@link startAnalysis}. */
export interface StartAnalysisOptions {
  /**
   * Idempotency token (1–64 chars `[a-zA-Z0-9-_]`): a retried start with the same token returns the same job
   * instead of starting (and paying for) another. Use e.g. the extraction job id.
   */
  clientRequestToken?: string;
  /** Tag echoed in Textract's completion notification (1–64 chars). */
  jobTag?: string;
  /** S3 object version to read. */
  version?: string;
}

/**
 * Textract job state of one result page: `in_progress` (poll again later), `succeeded`, or `partial_success`
 * (some pages failed; see `warnings`). A FAILED job never gets here: it throws `ocr_failed`.
 */
export type TextractJobStatus = 'in_progress' | 'succeeded' | 'partial_success';

/** One page of a job's results. */
export interface TextractResultPage {
  status: TextractJobStatus;
  /** Blocks of this result page (empty while in progress). */
  blocks: Block[];
  /** Token of the next result page; undefined on the last one. */
  nextToken?: string;
  /** Number of pages in the document (`DocumentMetadata.Pages`), when Textract reports it. */
  pageCount?: number;
  /** Textract warnings, e.g. `"PAGES_FAILED on pages 3, 4"`. */
  warnings: string[];
}

/** Thrown by {@link collectAll} when the job has not finished (a retryable condition, not a document error). */
export class TextractJobInProgressError extends Error {
  constructor(readonly jobId: string) {
    super(`Textract job ${jobId} is still in progress`);
    this.name = 'TextractJobInProgressError';
  }
}

/** Textract errors caused by the document itself (no point retrying) → extraction error codes. */
const DOCUMENT_ERRORS: Record<string, ExtractionError['code']> = {
  UnsupportedDocumentException: 'not_pdf',
  BadDocumentException: 'corrupt_pdf',
  DocumentTooLargeException: 'file_too_large',
};

function mapTextractError(e: unknown, what: string): unknown {
  const name = (e as { name?: string } | undefined)?.name ?? '';
  const code = DOCUMENT_ERRORS[name];
  if (code) return new ExtractionError(code, `Textract ${what}: ${name}: ${(e as Error).message}`);
  if (name === 'InvalidJobIdException') return new ExtractionError('ocr_failed', `Textract ${what}: ${(e as Error).message}`);
  // Throttling, limits, access, internal errors: rethrown unchanged so the caller (Step Functions) can retry.
  return e;
}

/**
 * Analysis features requested: FORMS gives the checkbox blocks, QUERIES the answers for unrecognized forms;
 * TABLES, SIGNATURES and LAYOUT would add cost for blocks unused.
 */
export const TEXTRACT_FEATURE_TYPES: readonly FeatureType[] = ['FORMS', 'QUERIES'];

/**
 * Textract's `QueriesConfig`: the generic questions (shared/domain/extraction/queries.ts), each on every page
 * (`Pages: ['*']`; without it Textract asks only page 1).
 */
export const TEXTRACT_QUERIES_CONFIG = {
  Queries: GENERIC_QUERIES.map((q) => ({ Text: q.text, Alias: q.alias, Pages: ['*'] })),
};

/**
 * Starts asynchronous document analysis (`FeatureTypes: ['FORMS', 'QUERIES']`, {@link TEXTRACT_QUERIES_CONFIG})
 * of `s3://bucket/key`.
 * @returns Textract's JobId
 * @throws ExtractionError `not_pdf` | `corrupt_pdf` | `file_too_large` for documents Textract rejects;
 *   other SDK errors (throttling, access) unchanged
 */
export async function startAnalysis(bucket: string, key: string, opts: StartAnalysisOptions = {}): Promise<string> {
  let out;
  try {
    out = await textract().send(
      new StartDocumentAnalysisCommand({
        DocumentLocation: { S3Object: { Bucket: bucket, Name: key, ...(opts.version ? { Version: opts.version } : {}) } },
        FeatureTypes: [...TEXTRACT_FEATURE_TYPES],
        QueriesConfig: TEXTRACT_QUERIES_CONFIG,
        ...(opts.clientRequestToken ? { ClientRequestToken: opts.clientRequestToken } : {}),
        ...(opts.jobTag ? { JobTag: opts.jobTag } : {}),
      }),
    );
  } catch (e) {
    throw mapTextractError(e, 'start');
  }
  if (!out?.JobId) throw new ExtractionError('ocr_failed', 'Textract returned no JobId');
  return out.JobId;
}

function warningsOf(res: GetDocumentAnalysisResponse): string[] {
  return (res.Warnings ?? []).map((w) => `${w.ErrorCode ?? 'WARNING'}${w.Pages?.length ? ` on pages ${w.Pages.join(', ')}` : ''}`);
}

/**
 * Reads one page of a job's results (up to 1,000 blocks, every block type as Textract returns it).
 * @param nextToken token from the previous page; omit for the first
 * @throws ExtractionError `ocr_failed` when the job FAILED (with Textract's StatusMessage) or the job id is
 *   unknown/expired; other SDK errors unchanged
 */
export async function getAnalysisPage(jobId: string, nextToken?: string): Promise<TextractResultPage> {
  let res: GetDocumentAnalysisResponse;
  try {
    res =
      (await textract().send(
        new GetDocumentAnalysisCommand({ JobId: jobId, MaxResults: 1000, ...(nextToken ? { NextToken: nextToken } : {}) }),
      )) ?? {};
  } catch (e) {
    throw mapTextractError(e, 'get results');
  }
  const pageCount = res.DocumentMetadata?.Pages;
  const base = { pageCount, warnings: warningsOf(res) };
  switch (res.JobStatus) {
    case 'IN_PROGRESS':
      return { status: 'in_progress', blocks: [], ...base };
    case 'SUCCEEDED':
    case 'PARTIAL_SUCCESS':
      return {
        status: res.JobStatus === 'SUCCEEDED' ? 'succeeded' : 'partial_success',
        blocks: res.Blocks ?? [],
        nextToken: res.NextToken || undefined,
        ...base,
      };
    case 'FAILED':
      throw new ExtractionError('ocr_failed', `Textract job ${jobId} failed${res.StatusMessage ? `: ${res.StatusMessage}` : ''}`);
    default:
      throw new ExtractionError('ocr_failed', `Textract job ${jobId} returned unknown status ${String(res.JobStatus)}`);
  }
}

/** Options of {@link collectAll}. */
export interface CollectOptions {
  /** Fails `too_many_pages` when Textract reports more pages (a backstop; check before starting). */
  maxPages?: number;
  /** Safety cap on result pages fetched (each ≤ 1,000 blocks). Default 1,000. */
  maxResultPages?: number;
}

/**
 * All blocks of a finished job (SELECTION_ELEMENT included, in Textract's order), as an {@link OcrResult} (every
 * page's method `textract`) plus Textract warnings.
 */
export type TextractOcrResult = OcrResult & { warnings: string[] };

/**
 * Fetches every result page of a finished job, following NextToken.
 * @throws TextractJobInProgressError when the job is still running (retry later)
 * @throws ExtractionError `ocr_failed` (job FAILED, unknown job, pagination runaway) | `too_many_pages`
 */
export async function collectAll(jobId: string, opts: CollectOptions = {}): Promise<TextractOcrResult> {
  const maxResultPages = opts.maxResultPages ?? 1000;
  const blocks: Block[] = [];
  const warnings = new Set<string>();
  let pageCount: number | undefined;
  let token: string | undefined;
  const seen = new Set<string>();
  for (let i = 0; ; i++) {
    if (i >= maxResultPages) throw new ExtractionError('ocr_failed', `Textract job ${jobId}: more than ${maxResultPages} result pages`);
    const page = await getAnalysisPage(jobId, token);
    if (page.status === 'in_progress') throw new TextractJobInProgressError(jobId);
    if (i === 0 && page.pageCount !== undefined && opts.maxPages !== undefined) assertPageCount(page.pageCount, opts.maxPages);
    pageCount ??= page.pageCount;
    for (const b of page.blocks) blocks.push(b);
    for (const w of page.warnings) warnings.add(w);
    if (!page.nextToken) break;
    if (seen.has(page.nextToken)) throw new ExtractionError('ocr_failed', `Textract job ${jobId}: repeated NextToken`);
    seen.add(page.nextToken);
    token = page.nextToken;
  }
  const count = pageCount ?? blocks.reduce((m, b) => Math.max(m, b.Page ?? 1), 0);
  const methods: Record<number, OcrMethod> = {};
  for (let p = 1; p <= count; p++) methods[p] = 'textract';
  return { pageCount: count, blocks, methods, warnings: [...warnings] };
}
