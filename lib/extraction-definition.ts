/**
 * The contract-extraction state machine, as Amazon States Language (JSONPath), built by a plain function so the
 * SAME definition runs in AWS Step Functions (CDK `DefinitionBody.fromString` + `definitionSubstitutions`, see
 * lib/extraction-pipeline.ts) and locally in aws-local-stepfunctions (lib/local/step-functions.ts, task states
 * overridden to call local handlers). Each Task's `Resource` is a `${<Step>FunctionArn}` placeholder: CDK fills it
 * with the step function's ARN, the local runner with a pseudo-ARN (`localStepArn`). No CDK import here, so the
 * local runtime loads this module cheaply.
 *
 * Execution input (`ExtractionWorkflowInput`, shared/ports/workflow.ts): `{ orgId, jobId, documentId, bucket, key }`;
 * the execution name is the `jobId`. Handlers: functions/extraction-steps/*.ts.
 *
 * States (`$` grows as it goes: `$.ocr`, `$.ocrStatus`, `$.blocks`, `$.extraction`, or `$.error` + `$.failure`):
 * - `MarkRunning` (Task → markRunning `{orgId, jobId}`; ResultPath null): the job goes `running`.
 * - `StartOcr` (Task → startOcr `{orgId, jobId, documentId, bucket, key}` → `{ocrJobId}`): in AWS starts Textract
 *   asynchronous document analysis with FORMS and QUERIES (text, checkbox states, answers to the generic
 *   questions) on the object; locally runs the whole local OCR and writes the blocks file (returning
 *   `ocrJobId: 'local'`). Stored as `$.ocr = {ocrJobId, polls: 0}`.
 * - `WaitForOcr` (Wait `OCR_POLL_INTERVAL_SECONDS` = 5 s; overridden to 0 ms locally).
 * - `GetOcrStatus` (Task → getOcrStatus `{ocrJobId}` → `{status, statusMessage?}` at `$.ocrStatus`).
 * - `OcrDone` (Choice): `SUCCEEDED` → `CollectBlocks`; `PARTIAL_SUCCESS` (some pages unreadable) →
 *   `CollectBlocks` too (the readable pages still give a proposal; their warnings flag it for review);
 *   `IN_PROGRESS` → `CountOcrPoll`; anything else → `OcrFailed`. (A Textract `FAILED` job makes GetOcrStatus
 *   itself throw `ocr_failed`, caught like any task error.)
 * - `CountOcrPoll` (Pass): `$.ocr.polls = States.MathAdd($.ocr.polls, 1)`.
 * - `OcrPollLimitReached` (Choice): `$.ocr.polls >= MAX_OCR_POLLS` (120, i.e. 120 × 5 s = 10 min of waiting) →
 *   `OcrTimedOut`; otherwise back to `WaitForOcr`. This bounds the poll loop.
 * - `OcrTimedOut` / `OcrFailed` (Pass): set `$.error = {Error: 'ocr_failed', Cause}` → `MarkFailed`.
 * - `CollectBlocks` (Task → collectBlocks `{orgId, jobId, ocrJobId}` → `{blocksKey, pageCount, blockCount}` at
 *   `$.blocks`): pages through the Textract results (NextToken) and writes the `OcrResult` JSON to S3 at
 *   `ocr/<orgId>/<jobId>/blocks.json`. State payloads are limited to 256 KB, so only the key travels.
 * - `ExtractFields` (Task → extractFields `{orgId, jobId, documentId, blocksKey}` → a small summary at
 *   `$.extraction`): reads the blocks, runs `extractContract`, then `completeJob` (job result and the
 *   `extraction.completed` event commit together).
 * - `Succeeded` (Succeed).
 * - `MarkFailed` (Task → markFailed `{orgId, jobId, error: {Error, Cause}}` → `{code, message}` at `$.failure`):
 *   `failJob` with the error's code: an `ExtractionErrorCode` passes through (step handlers raise
 *   `ExtractionError`s under their code as the error name), anything else becomes `internal_error`. Retried on
 *   Lambda service errors; no Catch (if it cannot record the failure, the execution fails and alarms).
 * - `Failed` (Fail, `Error` = `$.failure.code`, `Cause` = `$.failure.message`).
 *
 * Every Task retries Lambda service errors and `States.Timeout` (`LAMBDA_RETRY`: 3 attempts, 2 s × 2ⁿ, full
 * jitter, at most 30 s apart); the three that call Textract (`StartOcr`, `GetOcrStatus`, `CollectBlocks`) also
 * retry its throttling and job-quota errors (`TEXTRACT_RETRY`: 6 attempts, 5 s × 2ⁿ, at most 120 s apart) and catches `States.ALL` into `$.error` → `MarkFailed` (except `MarkFailed` itself).
 * Each Task has its own `TimeoutSeconds` (a backstop above the function's own timeout; `StartOcr` allows 900 s
 * because the local OCR runs inside it), and the whole execution `EXECUTION_TIMEOUT_SECONDS` (1 h; alarmed).
 */

/**
 * Key prefix of uploaded documents (`org/<orgId>/documents/<documentId>/<file>`): the documents bucket's
 * ObjectCreated notification filter in AWS (lib/extraction-pipeline.ts) and the local runtime's
 * (`documentUploadRecords` in lib/local/step-functions.ts). Here because this module is CDK-free.
 */
export const DOCUMENT_PREFIX = 'org/';

/** The six task steps, each one Lambda handler in functions/extraction-steps/. */
export const EXTRACTION_STEPS = ['markRunning', 'startOcr', 'getOcrStatus', 'collectBlocks', 'extractFields', 'markFailed'] as const;
/** One task step of the extraction workflow. */
export type ExtractionStep = (typeof EXTRACTION_STEPS)[number];

/** Task state name of each step. */
export const STEP_STATE_NAMES: Readonly<Record<ExtractionStep, string>> = {
  markRunning: 'MarkRunning',
  startOcr: 'StartOcr',
  getOcrStatus: 'GetOcrStatus',
  collectBlocks: 'CollectBlocks',
  extractFields: 'ExtractFields',
  markFailed: 'MarkFailed',
};

/** Substitution variable of each step's `Resource` (`${MarkRunningFunctionArn}`, …), the keys of `definitionSubstitutions`. */
export const STEP_RESOURCE_VARIABLES: Readonly<Record<ExtractionStep, string>> = {
  markRunning: 'MarkRunningFunctionArn',
  startOcr: 'StartOcrFunctionArn',
  getOcrStatus: 'GetOcrStatusFunctionArn',
  collectBlocks: 'CollectBlocksFunctionArn',
  extractFields: 'ExtractFieldsFunctionArn',
  markFailed: 'MarkFailedFunctionArn',
};

/** Seconds `WaitForOcr` waits between Textract status checks. */
export const OCR_POLL_INTERVAL_SECONDS = 5;
/** Status checks answered `IN_PROGRESS` before the job fails `ocr_failed` (120 × 5 s = 10 min). */
export const MAX_OCR_POLLS = 120;
/** Backstop on a whole execution (s). Every bounded path ends far sooner; reaching it fails without `MarkFailed`. */
export const EXECUTION_TIMEOUT_SECONDS = 3600;

/** Per-task `TimeoutSeconds` (a backstop: each deployed function's own timeout is lower). */
export const STEP_TIMEOUT_SECONDS: Readonly<Record<ExtractionStep, number>> = {
  markRunning: 60,
  // Locally the whole OCR (pdf.js + tesseract.js) runs in this task.
  startOcr: 900,
  getOcrStatus: 60,
  collectBlocks: 300,
  extractFields: 300,
  markFailed: 60,
};

/** Errors of the Lambda service itself (not of the handler), worth retrying, plus a task timeout. */
export const LAMBDA_RETRY_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
  'States.Timeout',
] as const;

/**
 * Textract's throttling and quota errors, as the SDK names them (the adapter rethrows them unchanged, so they are
 * the Lambda error type): the per-account TPS limit, and `LimitExceededException` when too many asynchronous jobs
 * run at once. Worth waiting for; never the document's fault.
 */
export const TEXTRACT_THROTTLE_ERRORS = ['ThrottlingException', 'ProvisionedThroughputExceededException', 'LimitExceededException'] as const;

/** A JSON value (what ASL and state payloads are made of). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** An ASL state: a JSON object with a `Type`. */
export type AslState = { Type: 'Task' | 'Pass' | 'Wait' | 'Choice' | 'Succeed' | 'Fail' } & { [key: string]: Json };
/** An ASL state machine definition (the subset this module writes). */
export interface AslDefinition {
  Comment: string;
  StartAt: string;
  TimeoutSeconds: number;
  States: Record<string, AslState>;
}

/** The retrier every Task carries. */
const LAMBDA_RETRY: Json = {
  ErrorEquals: [...LAMBDA_RETRY_ERRORS],
  IntervalSeconds: 2,
  MaxAttempts: 3,
  BackoffRate: 2,
  MaxDelaySeconds: 30,
  JitterStrategy: 'FULL',
};

/**
 * The retrier of the Tasks that call Textract: 6 attempts, 5 s × 2ⁿ with full jitter, at most 2 minutes apart
 * (about 5 minutes in all, within the execution's hour), so a burst of uploads waits out Textract's limits
 * instead of failing jobs `internal_error`.
 */
const TEXTRACT_RETRY: Json = {
  ErrorEquals: [...TEXTRACT_THROTTLE_ERRORS],
  IntervalSeconds: 5,
  MaxAttempts: 6,
  BackoffRate: 2,
  MaxDelaySeconds: 120,
  JitterStrategy: 'FULL',
};

/** Sends any error (as `{Error, Cause}` at `$.error`, the input kept) to `MarkFailed`. */
const CATCH_ALL: Json = { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'MarkFailed' };

/** A Lambda Task for `step`, with its placeholder resource, retrier and timeout. */
function task(step: ExtractionStep, comment: string, fields: { [key: string]: Json }, catchAll = true, callsTextract = false): AslState {
  return {
    Type: 'Task',
    Comment: comment,
    Resource: `\${${STEP_RESOURCE_VARIABLES[step]}}`,
    TimeoutSeconds: STEP_TIMEOUT_SECONDS[step],
    ...fields,
    Retry: callsTextract ? [LAMBDA_RETRY, TEXTRACT_RETRY] : [LAMBDA_RETRY],
    ...(catchAll && { Catch: [CATCH_ALL] }),
  };
}

const JOB = { 'orgId.$': '$.orgId', 'jobId.$': '$.jobId' };

/**
 * The state machine with `${<Step>FunctionArn}` placeholders in each Task's `Resource` (see the module docstring
 * for every state). A fresh object each call.
 */
export function extractionDefinition(): AslDefinition {
  return {
    Comment: 'Contract extraction: OCR → blocks in S3 → extractContract → job result (lib/extraction-definition.ts)',
    StartAt: 'MarkRunning',
    TimeoutSeconds: EXECUTION_TIMEOUT_SECONDS,
    States: {
      MarkRunning: task('markRunning', 'Job → running.', { Parameters: JOB, ResultPath: null, Next: 'StartOcr' }),
      StartOcr: task('startOcr', 'Start OCR (Textract async document analysis with FORMS and QUERIES; locally the whole local OCR).', {
        Parameters: { ...JOB, 'documentId.$': '$.documentId', 'bucket.$': '$.bucket', 'key.$': '$.key' },
        ResultSelector: { 'ocrJobId.$': '$.ocrJobId', polls: 0 },
        ResultPath: '$.ocr',
        Next: 'WaitForOcr',
      }, true, true),
      WaitForOcr: { Type: 'Wait', Comment: 'Between OCR status checks.', Seconds: OCR_POLL_INTERVAL_SECONDS, Next: 'GetOcrStatus' },
      GetOcrStatus: task('getOcrStatus', 'OCR job status: IN_PROGRESS | SUCCEEDED | FAILED | PARTIAL_SUCCESS.', {
        Parameters: { 'ocrJobId.$': '$.ocr.ocrJobId' },
        ResultPath: '$.ocrStatus',
        Next: 'OcrDone',
      }, true, true),
      OcrDone: {
        Type: 'Choice',
        Comment: 'SUCCEEDED or PARTIAL_SUCCESS → collect; IN_PROGRESS → count and wait; anything else → ocr_failed.',
        Choices: [
          { Variable: '$.ocrStatus.status', StringEquals: 'SUCCEEDED', Next: 'CollectBlocks' },
          { Variable: '$.ocrStatus.status', StringEquals: 'PARTIAL_SUCCESS', Next: 'CollectBlocks' },
          { Variable: '$.ocrStatus.status', StringEquals: 'IN_PROGRESS', Next: 'CountOcrPoll' },
        ],
        Default: 'OcrFailed',
      },
      CountOcrPoll: {
        Type: 'Pass',
        Comment: 'One more IN_PROGRESS answer.',
        Parameters: { 'ocrJobId.$': '$.ocr.ocrJobId', 'polls.$': 'States.MathAdd($.ocr.polls, 1)' },
        ResultPath: '$.ocr',
        Next: 'OcrPollLimitReached',
      },
      OcrPollLimitReached: {
        Type: 'Choice',
        Comment: `At most ${MAX_OCR_POLLS} waits of ${OCR_POLL_INTERVAL_SECONDS} s.`,
        Choices: [{ Variable: '$.ocr.polls', NumericGreaterThanEquals: MAX_OCR_POLLS, Next: 'OcrTimedOut' }],
        Default: 'WaitForOcr',
      },
      OcrTimedOut: {
        Type: 'Pass',
        Comment: 'Poll limit reached.',
        Parameters: {
          Error: 'ocr_failed',
          Cause: `OCR did not finish within ${MAX_OCR_POLLS * OCR_POLL_INTERVAL_SECONDS} s (${MAX_OCR_POLLS} status checks).`,
        },
        ResultPath: '$.error',
        Next: 'MarkFailed',
      },
      OcrFailed: {
        Type: 'Pass',
        Comment: 'The OCR job ended without success.',
        Parameters: {
          Error: 'ocr_failed',
          'Cause.$': "States.Format('OCR job {} ended with status {}.', $.ocr.ocrJobId, $.ocrStatus.status)",
        },
        ResultPath: '$.error',
        Next: 'MarkFailed',
      },
      CollectBlocks: task('collectBlocks', 'All result pages → OcrResult JSON in S3; only its key travels (256 KB payload limit).', {
        Parameters: { ...JOB, 'ocrJobId.$': '$.ocr.ocrJobId' },
        ResultPath: '$.blocks',
        Next: 'ExtractFields',
      }, true, true),
      ExtractFields: task('extractFields', 'extractContract over the blocks, then completeJob (result + extraction.completed together).', {
        Parameters: { ...JOB, 'documentId.$': '$.documentId', 'blocksKey.$': '$.blocks.blocksKey' },
        ResultPath: '$.extraction',
        Next: 'Succeeded',
      }),
      Succeeded: { Type: 'Succeed' },
      MarkFailed: task(
        'markFailed',
        'failJob with the error code (ExtractionError codes pass through; anything else → internal_error).',
        { Parameters: { ...JOB, 'error.$': '$.error' }, ResultPath: '$.failure', Next: 'Failed' },
        false,
      ),
      Failed: { Type: 'Fail', Comment: 'Error = the job error code.', ErrorPath: '$.failure.code', CausePath: '$.failure.message' },
    },
  };
}

/**
 * The definition with every `${<Step>FunctionArn}` replaced by `resources[step]` (the local runner passes
 * `localStepArn(step)`); CDK does the same at deploy time with `definitionSubstitutions`.
 * @throws Error when a placeholder is left (a step missing from `resources`)
 */
export function renderExtractionDefinition(resources: Readonly<Record<ExtractionStep, string>>): AslDefinition {
  let text = JSON.stringify(extractionDefinition());
  for (const step of EXTRACTION_STEPS) text = text.replaceAll(`\${${STEP_RESOURCE_VARIABLES[step]}}`, resources[step]);
  const left = /\$\{[A-Za-z]+\}/.exec(text);
  if (left) throw new Error(`extraction definition: placeholder ${left[0]} not substituted`);
  return JSON.parse(text) as AslDefinition;
}

/** The pseudo-ARN the local runner gives `step` (a well-formed Lambda ARN in region `local`, account 000000000000). */
export const localStepArn = (step: ExtractionStep): string => `arn:aws:lambda:local:000000000000:function:extraction-${step}`;
