/**
 * Fixtures of the documents-, extraction- and apply- tests: a real local s3rver whose ObjectCreated events
 * reach the real `functions/document-uploaded` handler, a recording workflow runner (the extraction
 * pipeline itself is not run here), small PDFs, hand-made extraction results, and polling.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { invokeDocumentUploaded, startLocalS3, type LocalS3 } from '#lib/local/s3-local';
import { resetBlobStore } from '#ports/blob-store';
import { registerLocalWorkflowRunner, type ExtractionWorkflowInput } from '#ports/workflow';
import { computeKeyDates } from '#domain/extraction/key-dates';
import type { ContractFieldName, ContractFields, ExtractedField, ExtractionResult } from '#domain/extraction/types';
import { CONTRACT_FIELD_KINDS } from '#domain/apply-extraction';
import { completeJob } from '#use-cases/finish-extraction';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';

/** The local S3 of a test file, with the workflow starts it saw. */
export interface TestS3 extends LocalS3 {
  /** Every workflow start, in order. */
  started: ExtractionWorkflowInput[];
  close(): Promise<void>;
}

/**
 * Starts s3rver in a temp directory, points the blob store at it (`S3_ENDPOINT`, `DOCUMENTS_BUCKET`) and
 * registers a workflow runner that only records its input.
 */
export async function startTestS3(): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'tcs-s3-test-'));
  const s3 = await startLocalS3({ directory, onObjectCreated: invokeDocumentUploaded });
  process.env.S3_ENDPOINT = s3.endpoint;
  process.env.DOCUMENTS_BUCKET = s3.bucket;
  resetBlobStore();
  const started: ExtractionWorkflowInput[] = [];
  registerLocalWorkflowRunner(async (input) => {
    started.push(input);
  });
  return {
    ...s3,
    started,
    async close() {
      registerLocalWorkflowRunner(undefined);
      await s3.stop();
      resetBlobStore();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** What a documents test file runs against: the HTTP API, s3rver, our organization and another one. */
export interface DocumentsHarness {
  t: TestApi;
  s3: TestS3;
  org: TestOrg;
  other: TestOrg;
  close(): Promise<void>;
}

/** Starts the test API and s3rver and creates two organizations named `orgName` and `otherName`. */
export async function startDocumentsHarness(orgName: string, otherName: string): Promise<DocumentsHarness> {
  const t = await startTestApi();
  const s3 = await startTestS3();
  return {
    t,
    s3,
    org: await t.newOrg(orgName),
    other: await t.newOrg(otherName),
    async close() {
      await t.close();
      await s3.close();
    },
  };
}

/** A small PDF-looking file (starts with the `%PDF-` header; enough for the upload checks). */
export const pdfBytes = (note = 'test'): Buffer => Buffer.from(`%PDF-1.4\n% ${note}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

/** Polls `fn` every 25 ms until it returns a value that is not undefined (or `timeoutMs` passes). */
export async function waitFor<T>(fn: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** One extracted field with a citation on page 1 (null value: not found, confidence 0). */
export function field<T>(value: T | null, confidence = 0.93): ExtractedField<T> {
  if (value === null) return { value: null, confidence: 0, citations: [], warnings: ['not found'] };
  return { value, confidence, citations: [{ page: 1, text: String(value), boundingBox: { left: 0.1, top: 0.2, width: 0.3, height: 0.02 } }], warnings: [] };
}

/** A full `ContractFields` from plain values (every field not given is null). */
export function contractFields(values: Partial<Record<ContractFieldName, unknown>>): ContractFields {
  return Object.fromEntries((Object.keys(CONTRACT_FIELD_KINDS) as ContractFieldName[]).map((name) => [name, field(values[name] ?? null)])) as unknown as ContractFields;
}

/** The values of a typical financed TREC 20-18 purchase with an HOA. */
export const TREC_VALUES: Partial<Record<ContractFieldName, unknown>> = {
  propertyStreet: '4821 Bluebonnet Trl',
  propertyCity: 'Austin',
  propertyState: 'TX',
  propertyZip: '78745',
  county: 'Travis',
  buyers: ['Maria Delgado', 'Luis Delgado'],
  sellers: ['Robert Chen'],
  salesPriceCash: 85_000,
  salesPriceFinanced: 340_000,
  salesPriceTotal: 425_000,
  financingType: 'third_party',
  earnestMoney: 5_000,
  optionFee: 250,
  optionPeriodDays: 7,
  escrowAgent: 'Hill Country Title',
  effectiveDate: '2030-03-02',
  closingDate: '2030-04-15',
  surveyDays: 15,
  titleObjectionDays: 10,
  hoa: true,
  addenda: ['Third Party Financing Addendum', 'Addendum for Property Subject to Mandatory Membership in a Property Owners Association'],
  buyerAgent: 'Jenna Park',
  buyerBrokerage: 'Lone Star Realty',
  listingAgent: 'Tom Reyes',
  listingBrokerage: 'Capitol Homes',
  financingDeadlineDays: 21,
};

/** An extraction result as the extractor would produce it, key dates computed by the real key-date rules. */
export function extractionResult(values: Partial<Record<ContractFieldName, unknown>> = TREC_VALUES, formType: ExtractionResult['formType'] = 'TREC 20-18'): ExtractionResult {
  const fields = contractFields(values);
  const { keyDates, warnings } = computeKeyDates(fields, formType);
  return { formType, pageCount: 11, fields, keyDates, warnings, confidence: 0.91, requiresReview: false };
}

/**
 * Uploads a PDF with `POST /documents` (draft key), waits for the upload notification, then completes the
 * job with `result` as the pipeline would.
 * @returns the document id and the completed job id
 */
export async function uploadAndComplete(
  t: { call: (method: string, path: string, opts?: { key?: string; body?: unknown }) => Promise<{ status: number; body: any; text: string }> },
  org: { orgId: string; keys: { draft: string; read: string } },
  result: ExtractionResult = extractionResult(),
  opts: { fileName?: string; transactionId?: string } = {},
): Promise<{ documentId: string; jobId: string }> {
  const r = await t.call('POST', '/api/v1/documents', {
    key: org.keys.draft,
    body: { fileName: opts.fileName ?? 'Executed contract.pdf', contentBase64: pdfBytes().toString('base64'), ...(opts.transactionId ? { transactionId: opts.transactionId } : {}) },
  });
  if (r.status !== 200) throw new Error(`upload failed: ${r.status} ${r.text}`);
  const { documentId, jobId } = r.body.data;
  await waitFor(async () => ((await t.call('GET', `/api/v1/documents/${documentId}`, { key: org.keys.read })).body.data.uploadState === 'uploaded' ? true : undefined));
  await completeJob(org.orgId, jobId, result, new Date());
  return { documentId, jobId };
}
