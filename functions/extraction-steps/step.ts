/**
 * What the extraction state machine's task handlers share (lib/extraction-definition.ts documents the states):
 * their input/output shapes (the JSON the `Parameters` of each Task build and the JSON the handler returns),
 * `stepHandler` (the wrapper every handler is exported through), and the mapping from a Step Functions error
 * (`{Error, Cause}`) to a job error code.
 *
 * Error names carry the code. Step Functions names a task error by the Lambda's `errorType`, which the Node.js
 * runtime takes from `error.name`, and aws-local-stepfunctions does the same locally. `ExtractionError`'s name is
 * always `ExtractionError`, so `stepHandler` rethrows it as a `StepFailure` named by its code (`encrypted_pdf`,
 * …); `MarkFailed` then reads the code back from `Error`. Any other error keeps its own name and ends the job
 * `internal_error`.
 */
import type { Context } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { ExtractionError, type ExtractionErrorCode } from '#domain/extraction/types';
import { logger, metricSet, metrics, observedHandler } from '#observability/powertools';

/** The job an execution works on (every step's input has it). */
export interface JobRef {
  orgId: string;
  jobId: string;
}

/** `StartOcr` input: the uploaded object. */
export interface StartOcrInput extends JobRef {
  documentId: string;
  bucket: string;
  key: string;
}
/** `StartOcr` output: the OCR job to poll (`local` for the local runner, which has already finished). */
export interface StartOcrOutput {
  ocrJobId: string;
  status?: OcrJobStatus;
}

/** Textract job state as the state machine's `OcrDone` choice reads it. */
export type OcrJobStatus = 'IN_PROGRESS' | 'SUCCEEDED' | 'PARTIAL_SUCCESS' | 'FAILED';
/** `GetOcrStatus` input. */
export interface GetOcrStatusInput {
  ocrJobId: string;
}
/** `GetOcrStatus` output. */
export interface GetOcrStatusOutput {
  status: OcrJobStatus;
  /** Textract warnings (e.g. `PAGES_FAILED on pages 3, 4`), when any. */
  statusMessage?: string;
}

/** `CollectBlocks` input. */
export interface CollectBlocksInput extends JobRef {
  ocrJobId: string;
}
/** `CollectBlocks` output: where the `OcrResult` JSON is (only the key travels: 256 KB payload limit). */
export interface CollectBlocksOutput {
  blocksKey: string;
  pageCount: number;
  blockCount: number;
}

/** `ExtractFields` input. */
export interface ExtractFieldsInput extends JobRef {
  documentId: string;
  blocksKey: string;
}
/** `ExtractFields` output: a summary (the result itself is stored with the job). */
export interface ExtractFieldsOutput {
  formType: string;
  pageCount: number;
  /** 0–1. */
  confidence: number;
  requiresReview: boolean;
}

/** A Step Functions error as `Catch` records it (`ResultPath: $.error`) or a Pass state sets it. */
export interface StateError {
  /** The error name: a job error code, `States.*`, `Lambda.*`, or a handler's error name. */
  Error: string;
  /** In AWS, for a Lambda error, JSON `{"errorType","errorMessage","trace"}`; locally, the message. */
  Cause?: string;
}

/** `MarkFailed` input. */
export interface MarkFailedInput extends JobRef {
  error: StateError;
}
/** `MarkFailed` output, read by the `Failed` state (`ErrorPath`, `CausePath`). */
export interface MarkFailedOutput {
  code: ExtractionErrorCode;
  message: string;
}

/** Every `ExtractionErrorCode`, for matching error names at run time. */
export const EXTRACTION_ERROR_CODES = [
  'empty_file',
  'not_pdf',
  'corrupt_pdf',
  'encrypted_pdf',
  'too_many_pages',
  'file_too_large',
  'ocr_failed',
  'no_text',
  'internal_error',
] as const satisfies readonly ExtractionErrorCode[];

// Fails to compile when `ExtractionErrorCode` gains a code missing above.
type MissingCode = Exclude<ExtractionErrorCode, (typeof EXTRACTION_ERROR_CODES)[number]>;
const allCodesListed: [MissingCode] extends [never] ? true : MissingCode = true;
void allCodesListed;

/** Whether `name` is a job error code. */
export const isExtractionErrorCode = (name: unknown): name is ExtractionErrorCode =>
  typeof name === 'string' && (EXTRACTION_ERROR_CODES as readonly string[]).includes(name);

/** An `ExtractionError` as a task error: `name` is the code, so Step Functions' `Error` is the code. */
export class StepFailure extends Error {
  constructor(
    readonly code: ExtractionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = code;
  }
}

/** `err` as a task should throw it: an `ExtractionError` becomes a `StepFailure`; anything else is unchanged. */
export function asStepError(err: unknown): unknown {
  return err instanceof ExtractionError ? new StepFailure(err.code, err.message) : err;
}

/** A step's Lambda handler (the context is optional: the local runner and tests may omit it). */
export type StepLambda<I, O> = (input: I, context?: Context) => Promise<O>;

const STEP_HANDLER = Symbol('stepHandler');

/** Every step's outcome metrics (Count; dimension `service` only, `extraction-<step>`). */
export const STEP_METRICS = metricSet(['ExtractionStepsSucceeded', 'ExtractionStepsFailed']);

/**
 * Wraps a step's operation as its Lambda handler, behind the Powertools middlewares: every log line carries
 * `step`, `orgId` and `jobId`; the EMF document gets the `step` property (not a dimension: each step is its own
 * function, so `service` already tells steps apart) and counts `ExtractionStepsSucceeded` or
 * `ExtractionStepsFailed`; a failure is logged (WARN for a job error code, ERROR with its stack otherwise) and
 * rethrown through `asStepError`. Wrapping a step handler again returns it unchanged.
 */
export function stepHandler<I, O>(step: string, run: (input: I) => Promise<O>): StepLambda<I, O> {
  if (STEP_HANDLER in run) return run as StepLambda<I, O>;
  const handler = observedHandler(async (input: I): Promise<O> => {
    const ref = (input ?? {}) as Partial<JobRef>;
    logger.appendKeys({ step, orgId: ref.orgId, jobId: ref.jobId });
    metrics.addMetadata('step', step);
    try {
      const out = await run(input);
      STEP_METRICS.add('ExtractionStepsSucceeded', MetricUnit.Count, 1);
      return out;
    } catch (err) {
      const e = asStepError(err);
      STEP_METRICS.add('ExtractionStepsFailed', MetricUnit.Count, 1);
      if (e instanceof StepFailure) logger.warn('extraction step failed', { code: e.code, message: e.message });
      else logger.error('extraction step failed', { error: e instanceof Error ? e : String(e) });
      throw e;
    }
  });
  return Object.assign(handler, { [STEP_HANDLER]: true });
}

/** Longest job error message kept (characters). */
const MAX_MESSAGE = 500;
/** What an `internal_error` job says (internals go to the logs, not to API clients). */
export const INTERNAL_ERROR_MESSAGE = 'The extraction failed unexpectedly. Upload the document again; if it fails again, contact support.';

/**
 * The job error a state error ends the job with: a job error code in `Error` passes through with the message
 * from `Cause` (Lambda's JSON `errorMessage`, or the text itself); anything else is `internal_error` with a
 * generic message.
 */
export function jobErrorOf(error: StateError | undefined): MarkFailedOutput {
  const name = error?.Error;
  if (!isExtractionErrorCode(name) || name === 'internal_error') return { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE };
  return { code: name, message: causeMessage(error?.Cause).slice(0, MAX_MESSAGE) || `Extraction failed: ${name}.` };
}

/** The human message inside a `Cause`: Lambda's `{"errorMessage": …}` JSON, or the string itself. */
function causeMessage(cause: string | undefined): string {
  if (!cause) return '';
  try {
    const parsed = JSON.parse(cause) as unknown;
    if (parsed && typeof parsed === 'object' && typeof (parsed as { errorMessage?: unknown }).errorMessage === 'string') {
      return (parsed as { errorMessage: string }).errorMessage;
    }
  } catch {
    // Not JSON: the local runner's plain message.
  }
  return cause;
}
