/**
 * The local Step Functions: runs the extraction state machine — the SAME definition CDK deploys
 * (lib/extraction-definition.ts) — in-process with aws-local-stepfunctions, each Task's pseudo-ARN
 * (`localStepArn`) mapped to a local function:
 * - `markRunning`, `extractFields`, `markFailed`: the deployed handlers themselves (functions/extraction-steps/).
 * - `startOcr` → `startOcrLocal`: reads the object (`getObjectBytes`), runs the local OCR adapter
 *   (`localOcr.analyze`: pdf.js text layer, tesseract.js for scans) and writes the blocks file at the same key the
 *   AWS `CollectBlocks` writes (`ocr/<orgId>/<jobId>/blocks.json`); returns `{ocrJobId: 'local', status: 'SUCCEEDED'}`.
 * - `getOcrStatus` → `SUCCEEDED`; `collectBlocks` → the blocks key (the file is already there).
 * `WaitForOcr` is overridden to 0 ms. The local OCR adapter is imported lazily, and only here: no deployed handler
 * imports it, so the Lambda bundles stay free of pdf.js and tesseract.js.
 *
 * At most `concurrency` executions (default 2) run at once; the rest wait in a queue, so a burst of uploads does
 * not start more tesseract work than a small machine can take. A runner never leaves a job `running`: when an
 * execution fails before `MarkFailed` or `ExtractFields` finished (e.g. `MarkFailed` itself failed), it calls
 * `markFailed` once more with the execution's error (→ `internal_error`).
 *
 * aws-local-stepfunctions 3 needs `Promise.withResolvers` (Node.js 22+); ./promise-with-resolvers.ts polyfills it
 * on Node.js 20 and is imported first.
 */
import './promise-with-resolvers.ts';
import { ExecutionError, StateMachine } from 'aws-local-stepfunctions';
import type { S3Event } from 'aws-lambda';
import {
  DOCUMENT_PREFIX,
  EXTRACTION_STEPS,
  localStepArn,
  renderExtractionDefinition,
  type AslDefinition,
  type ExtractionStep,
  type Json,
} from '#lib/extraction-definition';
import { blocksKeyOf, writeOcrResult } from '#functions/extraction-steps/blocks';
import {
  stepHandler,
  type CollectBlocksInput,
  type CollectBlocksOutput,
  type ExtractFieldsInput,
  type GetOcrStatusInput,
  type GetOcrStatusOutput,
  type JobRef,
  type MarkFailedInput,
  type MarkFailedOutput,
  type StartOcrInput,
  type StartOcrOutput,
} from '#functions/extraction-steps/step';
import { getObjectBytes } from '#ports/blob-store';
import { registerLocalWorkflowRunner, type ExtractionWorkflowInput } from '#ports/workflow';
import { logger } from '#observability/powertools';
import { invokeLocally } from '#lib/local/invoke';

/** The function behind each task of the state machine (what `taskResourceLocalHandlers` calls). */
export interface ExtractionTaskHandlers {
  markRunning(input: JobRef): Promise<unknown>;
  startOcr(input: StartOcrInput): Promise<StartOcrOutput>;
  getOcrStatus(input: GetOcrStatusInput): Promise<GetOcrStatusOutput>;
  collectBlocks(input: CollectBlocksInput): Promise<Pick<CollectBlocksOutput, 'blocksKey'> & Partial<CollectBlocksOutput>>;
  extractFields(input: ExtractFieldsInput): Promise<unknown>;
  markFailed(input: MarkFailedInput): Promise<MarkFailedOutput>;
}

/** How one local execution ended. */
export interface LocalExecution {
  status: 'SUCCEEDED' | 'FAILED';
  /** Names of the states entered, in order. */
  states: string[];
  /** The execution's output (SUCCEEDED). */
  output?: Json;
  /** The execution's error name and cause (FAILED): the job error code when it ended in the `Failed` state. */
  error?: string;
  cause?: string;
}

/** Whether the local OCR adapter (and with it a tesseract worker) has been loaded in this process. */
let localOcrLoaded = false;

/**
 * Local `StartOcr`: local OCR over the uploaded object, blocks file written at `blocksKeyOf(orgId, jobId)`.
 * @returns `{ ocrJobId: 'local', status: 'SUCCEEDED' }`
 * @throws ExtractionError from the adapter (`not_pdf`, `encrypted_pdf`, `too_many_pages`, …)
 */
export async function startOcrLocal(input: StartOcrInput): Promise<StartOcrOutput> {
  const { localOcr } = await import('#ports/ocr-local');
  localOcrLoaded = true;
  const ocr = await localOcr.analyze(await getObjectBytes(input.key));
  await writeOcrResult(blocksKeyOf(input.orgId, input.jobId), ocr);
  return { ocrJobId: 'local', status: 'SUCCEEDED' };
}

/** Local `GetOcrStatus`: the local OCR finished inside `StartOcr`. */
export const getOcrStatusLocal = async (_input: GetOcrStatusInput): Promise<GetOcrStatusOutput> => ({ status: 'SUCCEEDED' });

/** Local `CollectBlocks`: the local `StartOcr` already wrote the blocks file; only its key is returned. */
export const collectBlocksLocal = async (input: CollectBlocksInput): Promise<Pick<CollectBlocksOutput, 'blocksKey'>> => ({
  blocksKey: blocksKeyOf(input.orgId, input.jobId),
});

/** The local runtime's task handlers: the deployed handlers for the table steps, local stand-ins for OCR. */
export async function localTaskHandlers(): Promise<ExtractionTaskHandlers> {
  const [running, extract, failed] = await Promise.all([
    import('#functions/extraction-steps/mark-running'),
    import('#functions/extraction-steps/extract-fields'),
    import('#functions/extraction-steps/mark-failed'),
  ]);
  return {
    markRunning: running.handler,
    startOcr: startOcrLocal,
    getOcrStatus: getOcrStatusLocal,
    collectBlocks: collectBlocksLocal,
    extractFields: extract.handler,
    markFailed: failed.handler,
  };
}

/** `localTaskHandlers()` with `overrides` on top (the real handlers are not even imported when every step is overridden). */
async function withOverrides(overrides: Partial<ExtractionTaskHandlers> = {}): Promise<ExtractionTaskHandlers> {
  const complete = EXTRACTION_STEPS.every((s) => overrides[s]);
  return { ...(complete ? {} : await localTaskHandlers()), ...overrides } as ExtractionTaskHandlers;
}

/** The definition as the local runner runs it: every Task resource is `localStepArn(step)`. */
export function localExtractionDefinition(): AslDefinition {
  return renderExtractionDefinition(Object.fromEntries(EXTRACTION_STEPS.map((s) => [s, localStepArn(s)])) as Record<ExtractionStep, string>);
}

/**
 * A local state machine for the extraction definition (validated by aws-local-stepfunctions: asl-validator with
 * ARN and JSONPath checks).
 * @throws Error when the definition is invalid
 */
export function localExtractionStateMachine(definition: AslDefinition = localExtractionDefinition()): StateMachine {
  return new StateMachine(definition as unknown as ConstructorParameters<typeof StateMachine>[0], {
    validationOptions: { checkArn: true, checkPaths: true },
  });
}

/** Options of one local execution. */
export interface RunLocalExtractionOptions {
  /** Milliseconds `WaitForOcr` waits. Default 0. */
  ocrWaitMs?: number;
  /** The machine to run (default a new `localExtractionStateMachine()`). */
  machine?: StateMachine;
}

/**
 * Runs one execution of the extraction state machine with `handlers` behind its tasks (each wrapped by
 * `stepHandler`, as deployed, so an `ExtractionError` surfaces under its code). Never throws for a failed
 * execution: it reports it, after making sure the job does not stay `running` (see the module docstring).
 */
export async function runLocalExtraction(
  input: ExtractionWorkflowInput,
  handlers: ExtractionTaskHandlers,
  options: RunLocalExtractionOptions = {},
): Promise<LocalExecution> {
  const machine = options.machine ?? localExtractionStateMachine();
  const definition = localExtractionDefinition();
  let jobSettled = false; // ExtractFields or MarkFailed finished: the job is no longer running
  const byArn = new Map<string, (input: Json) => Promise<Json>>();
  for (const step of EXTRACTION_STEPS) {
    const run = stepHandler(step, handlers[step] as (input: unknown) => Promise<unknown>);
    byArn.set(localStepArn(step), async (taskInput) => {
      const out = await invokeLocally(run, taskInput, `extraction-${step}`);
      if (step === 'extractFields' || step === 'markFailed') jobSettled = true;
      return (out ?? {}) as Json;
    });
  }
  const taskResourceLocalHandlers: Record<string, (input: Json) => Promise<Json>> = {};
  for (const [name, state] of Object.entries(definition.States)) {
    if (state.Type !== 'Task') continue;
    const handler = byArn.get(String(state.Resource));
    if (!handler) throw new Error(`local extraction runner: no handler for ${name} (${String(state.Resource)})`);
    taskResourceLocalHandlers[name] = handler;
  }

  const execution = machine.run(input as unknown as Json & object, {
    overrides: {
      taskResourceLocalHandlers: taskResourceLocalHandlers as never,
      waitTimeOverrides: { WaitForOcr: options.ocrWaitMs ?? 0 },
    },
  });
  const states: string[] = [];
  const logging = (async () => {
    for await (const event of execution.eventLogs) if (event.type === 'StateEntered') states.push(event.state.name);
  })();
  try {
    const output = (await execution.result) as Json;
    await logging;
    return { status: 'SUCCEEDED', states, output };
  } catch (err) {
    await logging.catch(() => undefined);
    const cause = err instanceof ExecutionError && err.cause instanceof Error ? err.cause : err instanceof Error ? err : new Error(String(err));
    if (!jobSettled) {
      // The job never reached ExtractFields/MarkFailed's end: record the failure now (→ internal_error).
      const failure = { orgId: input.orgId, jobId: input.jobId, error: { Error: cause.name, Cause: cause.message } };
      await invokeLocally(stepHandler('markFailed', handlers.markFailed), failure, 'extraction-markFailed').catch((e: unknown) =>
        logger.error('local extraction: could not mark the job failed', { source: 'step-functions', orgId: input.orgId, jobId: input.jobId, error: e }),
      );
    }
    return { status: 'FAILED', states, error: cause.name, cause: cause.message };
  }
}

/** Options of `startLocalExtractionRunner`. */
export interface LocalExtractionRunnerOptions {
  /** Executions running at once; more wait in a queue. Default 2 (tesseract is CPU-bound). */
  concurrency?: number;
  /** Replaces some task handlers (tests). Default `localTaskHandlers()`. */
  handlers?: Partial<ExtractionTaskHandlers>;
  /** Milliseconds `WaitForOcr` waits. Default 0 (the real wait is `OCR_POLL_INTERVAL_SECONDS`). */
  ocrWaitMs?: number;
  /** Called after each execution ends (tests, logs). */
  onSettled?: (input: ExtractionWorkflowInput, execution: LocalExecution) => void;
}

/** A registered local runner. */
export interface LocalExtractionRunner {
  /** Queues one execution; resolves when it has ended (never rejects for a failed execution). */
  run(input: ExtractionWorkflowInput): Promise<LocalExecution>;
  /** Resolves when nothing is running or queued. */
  idle(): Promise<void>;
  /**
   * Unregisters the runner (the workflow port stops using it), ends every queued-but-not-started job failed
   * (`internal_error`: the runtime stopped first), waits for the running executions, and releases the local OCR
   * worker.
   */
  stop(): Promise<void>;
}

/**
 * Starts the local extraction runner and registers it with the workflow port
 * (`registerLocalWorkflowRunner`), so `startExtractionWorkflow` runs jobs here.
 * @throws RangeError when `concurrency` is not a positive integer
 */
export function startLocalExtractionRunner(options: LocalExtractionRunnerOptions = {}): LocalExtractionRunner {
  const concurrency = options.concurrency ?? 2;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  const machine = localExtractionStateMachine(); // validates the definition once, at start
  let handlers: Promise<ExtractionTaskHandlers> | undefined;
  const handlersOnce = () => (handlers ??= withOverrides(options.handlers));

  type Queued = { input: ExtractionWorkflowInput; resolve: (e: LocalExecution) => void };
  const queue: Queued[] = [];
  const running = new Set<Promise<void>>();
  let stopped = false;
  let idleWaiters: (() => void)[] = [];

  const settle = (item: Queued, execution: LocalExecution) => {
    options.onSettled?.(item.input, execution);
    item.resolve(execution);
  };
  const pump = () => {
    while (!stopped && running.size < concurrency && queue.length) {
      const item = queue.shift()!;
      const task = handlersOnce()
        .then((h) => runLocalExtraction(item.input, h, { machine, ocrWaitMs: options.ocrWaitMs }))
        .catch((err: unknown): LocalExecution => ({ status: 'FAILED', states: [], error: 'Error', cause: err instanceof Error ? err.message : String(err) }))
        .then((execution) => settle(item, execution))
        .finally(() => {
          running.delete(task);
          pump();
        });
      running.add(task);
    }
    if (running.size === 0 && queue.length === 0) {
      for (const w of idleWaiters) w();
      idleWaiters = [];
    }
  };

  const runner: LocalExtractionRunner = {
    run(input) {
      if (stopped) return Promise.reject(new Error('the local extraction runner is stopped'));
      return new Promise<LocalExecution>((resolve) => {
        queue.push({ input, resolve });
        pump();
      });
    },
    idle() {
      if (running.size === 0 && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      registerLocalWorkflowRunner(undefined);
      const abandoned = queue.splice(0);
      if (abandoned.length) {
        const h = await handlersOnce();
        for (const item of abandoned) {
          const error = { Error: 'internal_error', Cause: 'The local runtime stopped before this extraction started.' };
          await invokeLocally(stepHandler('markFailed', h.markFailed), { orgId: item.input.orgId, jobId: item.input.jobId, error }, 'extraction-markFailed').catch(() => undefined);
          settle(item, { status: 'FAILED', states: [], error: error.Error, cause: error.Cause });
        }
      }
      while (running.size) await Promise.all([...running]);
      for (const w of idleWaiters) w();
      idleWaiters = [];
      if (localOcrLoaded) {
        const { terminateLocalOcr } = await import('#ports/ocr-local');
        await terminateLocalOcr();
      }
    },
  };
  registerLocalWorkflowRunner((input) => runner.run(input));
  return runner;
}

/**
 * The part of a local S3 notification that AWS would deliver to the upload handler: only records whose key is
 * under `DOCUMENT_PREFIX` (`org/`, the bucket notification's filter in lib/extraction-pipeline.ts), so the
 * pipeline's own `ocr/` writes never reach it.
 * @returns the filtered event, or undefined when no record is left
 */
export function documentUploadRecords(event: S3Event): S3Event | undefined {
  const Records = (event.Records ?? []).filter((r) => r.s3?.object?.key?.startsWith(DOCUMENT_PREFIX));
  return Records.length ? { Records } : undefined;
}
