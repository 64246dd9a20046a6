/**
 * The extraction state machine (lib/extraction-definition.ts), run locally by aws-local-stepfunctions exactly as
 * the local runtime runs it (lib/local/step-functions.ts). The table steps are the real handlers
 * (functions/extraction-steps/) over mocked repositories (`#db/extraction-jobs`), the blocks file goes through an
 * in-memory blob store, the extractor is a stand-in, and the OCR steps are stand-ins per test (or the real local
 * `StartOcr` over a stand-in OCR adapter). Also: ASL validation, the local runner's queue (at most 2 at once) and
 * stop, and the workflow port's local mode (its `StartExecution` in AWS mode: test/unit/workflow-port.test.ts).
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRequire } from 'node:module';
import { ExtractionError, type ExtractionResult, type OcrResult } from '#domain/extraction/types';
import {
  EXTRACTION_STEPS,
  extractionDefinition,
  LAMBDA_RETRY_ERRORS,
  TEXTRACT_THROTTLE_ERRORS,
  localStepArn,
  MAX_OCR_POLLS,
  STEP_RESOURCE_VARIABLES,
  STEP_STATE_NAMES,
} from '#lib/extraction-definition';
import {
  collectBlocksLocal,
  documentUploadRecords,
  getOcrStatusLocal,
  localExtractionDefinition,
  localExtractionStateMachine,
  localTaskHandlers,
  runLocalExtraction,
  startLocalExtractionRunner,
  startOcrLocal,
  type ExtractionTaskHandlers,
} from '#lib/local/step-functions';
import { blocksKeyOf } from '#functions/extraction-steps/blocks';
import { INTERNAL_ERROR_MESSAGE, jobErrorOf, type StartOcrInput } from '#functions/extraction-steps/step';
import { registerLocalWorkflowRunner, startExtractionWorkflow, type ExtractionWorkflowInput } from '#ports/workflow';

/** asl-validator (the validator aws-local-stepfunctions runs; CommonJS, untyped). */
const aslValidator = createRequire(import.meta.url)('asl-validator') as (
  definition: unknown,
  options: { checkArn: boolean; checkPaths: boolean },
) => { isValid: boolean; errorsText: (separator: string) => string };

const jobs = vi.hoisted(() => ({
  markJobRunning: vi.fn(async (..._args: unknown[]) => true),
  completeJob: vi.fn(async (..._args: unknown[]) => true),
  failJob: vi.fn(async (..._args: unknown[]) => true),
  getJob: vi.fn(),
}));
vi.mock('#db/extraction-jobs', () => jobs);
vi.mock('#use-cases/finish-extraction', () => jobs);
// Proposals from a later document of a deal read the job and the deal (tested in test/e2e/proposals-*.test.ts).
const proposals = vi.hoisted(() => ({ proposeFromExtraction: vi.fn(async (..._args: unknown[]) => null) }));
vi.mock('#use-cases/proposals', () => proposals);

const blobs = vi.hoisted(() => new Map<string, Uint8Array>());
vi.mock('#ports/blob-store', () => ({
  documentsBucket: () => 'docs',
  putObject: vi.fn(async (key: string, body: Uint8Array) => void blobs.set(key, body)),
  getObjectBytes: vi.fn(async (key: string) => {
    const body = blobs.get(key);
    if (!body) throw Object.assign(new Error(`NoSuchKey ${key}`), { name: 'NoSuchKey' });
    return body;
  }),
}));

const extractor = vi.hoisted(() => ({ extractContract: vi.fn() }));
vi.mock('#domain/extraction/extract', () => extractor);

const localOcrStub = vi.hoisted(() => ({ analyze: vi.fn() }));
vi.mock('#ports/ocr-local', () => ({ localOcr: localOcrStub, terminateLocalOcr: vi.fn(async () => undefined) }));

const INPUT: ExtractionWorkflowInput = {
  orgId: 'org-1',
  jobId: '5b0c7a6e-6d1e-4a57-9a0e-2c7d3f1f2a10',
  documentId: '0f8e4b1c-2f5d-4a8e-9b7c-1d2e3f4a5b6c',
  bucket: 'docs',
  key: 'org/org-1/documents/0f8e4b1c-2f5d-4a8e-9b7c-1d2e3f4a5b6c/contract.pdf',
};
const BLOCKS_KEY = `ocr/${INPUT.orgId}/${INPUT.jobId}/blocks.json`;

const OCR: OcrResult = {
  pageCount: 1,
  blocks: [{ BlockType: 'LINE', Id: 'l1', Text: 'ONE TO FOUR FAMILY RESIDENTIAL CONTRACT (RESALE)', Page: 1, Confidence: 99 }],
  methods: { 1: 'pdf-text' },
};
const RESULT = {
  formType: 'TREC 20-18',
  pageCount: 1,
  fields: {},
  keyDates: [],
  warnings: [],
  confidence: 0.9,
  requiresReview: false,
} as unknown as ExtractionResult;

/** Real table-step handlers (mocked repositories); OCR steps replaced as given. */
async function handlersWith(ocr: Partial<ExtractionTaskHandlers>): Promise<ExtractionTaskHandlers> {
  return { ...(await localTaskHandlers()), ...ocr };
}

/** OCR stand-ins as Textract would behave: `statuses` answered in turn by GetOcrStatus (the last repeats). */
function textractLike(...statuses: string[]): Pick<ExtractionTaskHandlers, 'startOcr' | 'getOcrStatus' | 'collectBlocks'> {
  let i = 0;
  return {
    startOcr: vi.fn(async () => ({ ocrJobId: 'textract-job-1' })),
    getOcrStatus: vi.fn(async () => ({ status: statuses[Math.min(i++, statuses.length - 1)] as 'SUCCEEDED' })),
    collectBlocks: vi.fn(async (input) => {
      blobs.set(blocksKeyOf(input.orgId, input.jobId), new TextEncoder().encode(JSON.stringify(OCR)));
      return { blocksKey: blocksKeyOf(input.orgId, input.jobId), pageCount: 1, blockCount: 1 };
    }),
  };
}

const count = (states: string[], name: string) => states.filter((s) => s === name).length;

beforeEach(() => {
  blobs.clear();
  vi.clearAllMocks();
  extractor.extractContract.mockImplementation(() => structuredClone(RESULT));
  localOcrStub.analyze.mockResolvedValue(OCR);
});

describe('definition', () => {
  it('is valid ASL (asl-validator with ARN and JSONPath checks, as aws-local-stepfunctions validates it)', () => {
    const local = localExtractionDefinition();
    const { isValid, errorsText } = aslValidator(local, { checkArn: true, checkPaths: true });
    expect(isValid, errorsText('\n')).toBe(true);
    expect(() => localExtractionStateMachine(local)).not.toThrow();
  });

  it('has one ${…} resource placeholder per step, all substituted by the local runner', () => {
    const text = JSON.stringify(extractionDefinition());
    for (const step of EXTRACTION_STEPS) expect(text).toContain(`"Resource":"\${${STEP_RESOURCE_VARIABLES[step]}}"`);
    const local = JSON.stringify(localExtractionDefinition());
    expect(local).not.toMatch(/\$\{/);
    for (const step of EXTRACTION_STEPS) expect(local).toContain(localStepArn(step));
  });

  it('retries Lambda service errors on every task and sends any error to MarkFailed (except MarkFailed itself)', () => {
    const { States } = extractionDefinition();
    const tasks = Object.entries(States).filter(([, s]) => s.Type === 'Task');
    expect(tasks.map(([n]) => n).sort()).toEqual(Object.values(STEP_STATE_NAMES).sort());
    for (const [name, state] of tasks) {
      const [retry] = state.Retry as { ErrorEquals: string[]; MaxAttempts: number; BackoffRate: number }[];
      expect(retry.ErrorEquals, name).toEqual(expect.arrayContaining(['Lambda.ServiceException', 'Lambda.TooManyRequestsException', 'States.Timeout']));
      expect(retry.MaxAttempts, name).toBeGreaterThanOrEqual(2);
      expect(retry.MaxAttempts, name).toBeLessThanOrEqual(3);
      expect(retry.BackoffRate, name).toBeGreaterThan(1);
      if (name === 'MarkFailed') expect(state.Catch).toBeUndefined();
      else expect(state.Catch, name).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'MarkFailed' }]);
    }
    expect(LAMBDA_RETRY_ERRORS).toContain('Lambda.ServiceException');
    expect(States.Failed).toMatchObject({ Type: 'Fail', ErrorPath: '$.failure.code' });
  });
});

describe('Textract throttling', () => {
  it('the three Tasks that call Textract wait out its throttling and job quota with backoff; the others do not retry them', () => {
    const { States } = extractionDefinition();
    const textractTasks = ['StartOcr', 'GetOcrStatus', 'CollectBlocks'];
    for (const [name, state] of Object.entries(States).filter(([, s]) => s.Type === 'Task')) {
      const retriers = state.Retry as { ErrorEquals: string[]; MaxAttempts: number; IntervalSeconds: number; BackoffRate: number }[];
      const throttle = retriers.find((r) => r.ErrorEquals.includes('ThrottlingException'));
      if (!textractTasks.includes(name)) {
        expect(throttle, name).toBeUndefined();
        continue;
      }
      expect(throttle!.ErrorEquals, name).toEqual([...TEXTRACT_THROTTLE_ERRORS]);
      expect(throttle!.ErrorEquals).toContain('LimitExceededException');
      expect(throttle!.MaxAttempts, name).toBeGreaterThanOrEqual(5);
      expect(throttle!.BackoffRate, name).toBeGreaterThan(1);
      // The retrier comes before the catch-all, so a throttled call is retried, not recorded as internal_error.
      expect(state.Catch).toEqual([expect.objectContaining({ ErrorEquals: ['States.ALL'] })]);
    }
  });
});

describe('job error of a state error', () => {
  it("passes job error codes through, reading the message from Lambda's JSON Cause (AWS) or the plain Cause (local)", () => {
    const lambdaCause = JSON.stringify({ errorType: 'encrypted_pdf', errorMessage: 'The PDF is password-protected.', trace: ['at x'] });
    expect(jobErrorOf({ Error: 'encrypted_pdf', Cause: lambdaCause })).toEqual({ code: 'encrypted_pdf', message: 'The PDF is password-protected.' });
    expect(jobErrorOf({ Error: 'no_text', Cause: 'No text found.' })).toEqual({ code: 'no_text', message: 'No text found.' });
  });

  it('maps everything else to internal_error with a generic message', () => {
    for (const Error of ['States.Timeout', 'Lambda.Unknown', 'ExtractionError', 'TypeError', 'internal_error']) {
      expect(jobErrorOf({ Error, Cause: 'secret internals' }), Error).toEqual({ code: 'internal_error', message: INTERNAL_ERROR_MESSAGE });
    }
  });
});

describe('local execution', () => {
  it('happy path: MarkRunning → StartOcr → poll → CollectBlocks → ExtractFields, only the blocks key travels', async () => {
    const ocr = textractLike('SUCCEEDED');
    const run = await runLocalExtraction(INPUT, await handlersWith(ocr));

    expect(run.status).toBe('SUCCEEDED');
    expect(run.states).toEqual(['MarkRunning', 'StartOcr', 'WaitForOcr', 'GetOcrStatus', 'OcrDone', 'CollectBlocks', 'ExtractFields', 'Succeeded']);
    expect(jobs.markJobRunning).toHaveBeenCalledWith(INPUT.orgId, INPUT.jobId, expect.any(Date));
    expect(ocr.startOcr).toHaveBeenCalledWith({ orgId: INPUT.orgId, jobId: INPUT.jobId, documentId: INPUT.documentId, bucket: INPUT.bucket, key: INPUT.key });
    expect(ocr.getOcrStatus).toHaveBeenCalledWith({ ocrJobId: 'textract-job-1' });
    expect(ocr.collectBlocks).toHaveBeenCalledWith({ orgId: INPUT.orgId, jobId: INPUT.jobId, ocrJobId: 'textract-job-1' });
    expect(extractor.extractContract).toHaveBeenCalledWith(OCR);
    expect(jobs.completeJob).toHaveBeenCalledWith(INPUT.orgId, INPUT.jobId, RESULT, expect.any(Date));
    expect(jobs.failJob).not.toHaveBeenCalled();
    const output = run.output as Record<string, any>;
    expect(output.blocks).toEqual({ blocksKey: BLOCKS_KEY, pageCount: 1, blockCount: 1 });
    expect(output.extraction).toEqual({ formType: 'TREC 20-18', pageCount: 1, confidence: 0.9, requiresReview: false });
    expect(JSON.stringify(output)).not.toContain('ONE TO FOUR FAMILY'); // blocks stay in S3
  });

  it('runs the local OCR overrides: StartOcr reads the object, runs localOcr.analyze and writes the blocks file', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.7 stand-in');
    blobs.set(INPUT.key, pdf);
    const run = await runLocalExtraction(INPUT, await localTaskHandlers());

    expect(run.status).toBe('SUCCEEDED');
    expect(localOcrStub.analyze).toHaveBeenCalledWith(pdf);
    expect(JSON.parse(new TextDecoder().decode(blobs.get(BLOCKS_KEY)))).toEqual(OCR);
    expect((run.output as Record<string, any>).ocr).toEqual({ ocrJobId: 'local', polls: 0 });
    expect(jobs.completeJob).toHaveBeenCalledWith(INPUT.orgId, INPUT.jobId, RESULT, expect.any(Date));
    expect(await startOcrLocal(INPUT as StartOcrInput)).toEqual({ ocrJobId: 'local', status: 'SUCCEEDED' });
    expect(await getOcrStatusLocal({ ocrJobId: 'local' })).toEqual({ status: 'SUCCEEDED' });
    expect(await collectBlocksLocal({ ...INPUT, ocrJobId: 'local' })).toEqual({ blocksKey: BLOCKS_KEY });
  });

  it('OCR failure (Textract job FAILED → ocr_failed thrown by GetOcrStatus) → MarkFailed with ocr_failed', async () => {
    const ocr = textractLike('SUCCEEDED');
    ocr.getOcrStatus = vi.fn(async () => {
      throw new ExtractionError('ocr_failed', 'Textract job textract-job-1 failed: bad page');
    });
    const run = await runLocalExtraction(INPUT, await handlersWith(ocr));

    expect(run).toMatchObject({ status: 'FAILED', error: 'ocr_failed', cause: 'Textract job textract-job-1 failed: bad page' });
    expect(run.states.slice(-2)).toEqual(['MarkFailed', 'Failed']);
    expect(jobs.failJob).toHaveBeenCalledTimes(1);
    expect(jobs.failJob).toHaveBeenCalledWith(INPUT.orgId, INPUT.jobId, { code: 'ocr_failed', message: 'Textract job textract-job-1 failed: bad page' }, expect.any(Date));
    expect(jobs.completeJob).not.toHaveBeenCalled();
  });

  it('an unexpected OCR status takes the OcrFailed path → ocr_failed', async () => {
    const run = await runLocalExtraction(INPUT, await handlersWith(textractLike('FAILED')));
    expect(run.states).toContain('OcrFailed');
    expect(run.error).toBe('ocr_failed');
    expect(jobs.failJob).toHaveBeenCalledWith(INPUT.orgId, INPUT.jobId, { code: 'ocr_failed', message: 'OCR job textract-job-1 ended with status FAILED.' }, expect.any(Date));
  });

  it("an ExtractionError('encrypted_pdf') thrown in StartOcr ends the job with that code", async () => {
    const ocr = textractLike('SUCCEEDED');
    ocr.startOcr = vi.fn(async () => {
      throw new ExtractionError('encrypted_pdf', 'The PDF is password-protected.');
    });
    const run = await runLocalExtraction(INPUT, await handlersWith(ocr));

    expect(run.states).toEqual(['MarkRunning', 'StartOcr', 'MarkFailed', 'Failed']);
    expect(run).toMatchObject({ status: 'FAILED', error: 'encrypted_pdf' });
    expect(jobs.failJob).toHaveBeenCalledWith(INPUT.orgId, INPUT.jobId, { code: 'encrypted_pdf', message: 'The PDF is password-protected.' }, expect.any(Date));
    expect(ocr.getOcrStatus).not.toHaveBeenCalled();
  });

  it('any other error ends the job internal_error without leaking its message', async () => {
    const ocr = textractLike('SUCCEEDED');
    ocr.collectBlocks = vi.fn(async () => {
      throw new TypeError('Cannot read properties of undefined (reading "Blocks")');
    });
    const run = await runLocalExtraction(INPUT, await handlersWith(ocr));

    expect(run.error).toBe('internal_error');
    expect(jobs.failJob).toHaveBeenCalledWith(INPUT.orgId, INPUT.jobId, { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE }, expect.any(Date));
  });

  it('IN_PROGRESS twice then SUCCEEDED: the poll loop waits (overridden to 0 ms), counts and goes on', async () => {
    const ocr = textractLike('IN_PROGRESS', 'IN_PROGRESS', 'SUCCEEDED');
    const started = Date.now();
    const run = await runLocalExtraction(INPUT, await handlersWith(ocr));

    expect(Date.now() - started).toBeLessThan(4_000); // three 5 s waits would take 15 s
    expect(run.status).toBe('SUCCEEDED');
    expect(count(run.states, 'WaitForOcr')).toBe(3);
    expect(count(run.states, 'GetOcrStatus')).toBe(3);
    expect(count(run.states, 'CountOcrPoll')).toBe(2);
    expect(ocr.getOcrStatus).toHaveBeenCalledTimes(3);
    expect((run.output as Record<string, any>).ocr).toEqual({ ocrJobId: 'textract-job-1', polls: 2 });
    expect(jobs.completeJob).toHaveBeenCalledTimes(1);
  });

  it(`fails ocr_failed after ${MAX_OCR_POLLS} IN_PROGRESS answers (10 minutes of 5 s waits in AWS)`, async () => {
    const ocr = textractLike('IN_PROGRESS');
    const run = await runLocalExtraction(INPUT, await handlersWith(ocr));

    expect(ocr.getOcrStatus).toHaveBeenCalledTimes(MAX_OCR_POLLS);
    expect(count(run.states, 'WaitForOcr')).toBe(MAX_OCR_POLLS);
    expect(run.states.slice(-4)).toEqual(['OcrPollLimitReached', 'OcrTimedOut', 'MarkFailed', 'Failed']);
    expect(run).toMatchObject({ status: 'FAILED', error: 'ocr_failed' });
    expect(jobs.failJob).toHaveBeenCalledWith(INPUT.orgId, INPUT.jobId, { code: 'ocr_failed', message: 'OCR did not finish within 600 s (120 status checks).' }, expect.any(Date));
    expect(ocr.collectBlocks).not.toHaveBeenCalled();
  });

  it('never leaves the job running: when MarkFailed itself fails, the runner records the failure once more', async () => {
    const ocr = textractLike('SUCCEEDED');
    ocr.startOcr = vi.fn(async () => {
      throw new ExtractionError('not_pdf', 'not a PDF');
    });
    jobs.failJob.mockRejectedValueOnce(new Error('DynamoDB unavailable'));
    const run = await runLocalExtraction(INPUT, await handlersWith(ocr));

    expect(run.status).toBe('FAILED');
    expect(run.states.at(-1)).toBe('MarkFailed');
    expect(jobs.failJob).toHaveBeenCalledTimes(2);
    expect(jobs.failJob).toHaveBeenLastCalledWith(INPUT.orgId, INPUT.jobId, { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE }, expect.any(Date));
  });
});

describe('local runner', () => {
  /** OCR stand-ins whose StartOcr waits until released, counting how many run at once. */
  function gatedOcr() {
    let active = 0;
    let maxActive = 0;
    const gates: (() => void)[] = [];
    const ocr = textractLike('SUCCEEDED');
    ocr.startOcr = vi.fn(async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise<void>((resolve) => gates.push(resolve));
      active--;
      return { ocrJobId: 'textract-job-1' };
    });
    return { ocr, gates, maxActive: () => maxActive };
  }
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  };

  afterAll(() => registerLocalWorkflowRunner(undefined));

  it('runs at most 2 executions at once, queues the rest, and is what startExtractionWorkflow uses', async () => {
    const { ocr, gates, maxActive } = gatedOcr();
    const runner = startLocalExtractionRunner({ handlers: await handlersWith(ocr) });
    const inputs = [1, 2, 3, 4, 5].map((n) => ({ ...INPUT, jobId: `job-${n}` }));
    for (const input of inputs) expect(await startExtractionWorkflow(input)).toEqual({ mode: 'local', status: 'started' });

    await until(() => gates.length === 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(gates.length).toBe(2); // the other three wait
    while (jobs.completeJob.mock.calls.length < 5) {
      gates.shift()?.();
      await new Promise((r) => setTimeout(r, 10));
    }
    await runner.idle();
    expect(maxActive()).toBe(2);
    expect(jobs.completeJob.mock.calls.map((c) => c[1]).sort()).toEqual(inputs.map((i) => i.jobId));
    await runner.stop();
  });

  it('stop() waits for running executions, ends queued ones failed, and unregisters the runner', async () => {
    const { ocr, gates } = gatedOcr();
    const settled: string[] = [];
    const runner = startLocalExtractionRunner({ handlers: await handlersWith(ocr), concurrency: 1, onSettled: (i, e) => settled.push(`${i.jobId}:${e.status}`) });
    const first = runner.run({ ...INPUT, jobId: 'running-1' });
    const second = runner.run({ ...INPUT, jobId: 'queued-1' });
    await until(() => gates.length === 1);

    const stopping = runner.stop();
    await until(() => settled.includes('queued-1:FAILED'));
    expect(jobs.failJob).toHaveBeenCalledWith(INPUT.orgId, 'queued-1', { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE }, expect.any(Date));
    expect(settled).not.toContain('running-1:SUCCEEDED');
    gates.shift()!();
    await stopping;
    expect((await first).status).toBe('SUCCEEDED');
    expect((await second).status).toBe('FAILED');
    expect(jobs.markJobRunning).toHaveBeenCalledTimes(1); // the queued job never started
    await expect(runner.run(INPUT)).rejects.toThrow(/stopped/);

    delete process.env.EXTRACTION_STATE_MACHINE_ARN;
    await expect(startExtractionWorkflow(INPUT)).rejects.toThrow('EXTRACTION_STATE_MACHINE_ARN is not set');
  });
});

describe('local upload trigger filter', () => {
  it('keeps only records under org/ (the AWS notification filter), dropping the pipeline\'s own ocr/ writes', () => {
    const record = (key: string) => ({ eventName: 'ObjectCreated:Put', s3: { bucket: { name: 'docs' }, object: { key } } }) as never;
    const upload = record(INPUT.key);
    expect(documentUploadRecords({ Records: [record(BLOCKS_KEY), upload] })).toEqual({ Records: [upload] });
    expect(documentUploadRecords({ Records: [record(BLOCKS_KEY)] })).toBeUndefined();
  });
});
