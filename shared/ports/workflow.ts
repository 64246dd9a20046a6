/**
 * The workflow port: starts the contract-extraction state machine for a job (lib/extraction-definition.ts).
 * In AWS it calls Step Functions `StartExecution` on `EXTRACTION_STATE_MACHINE_ARN` with the job id as the
 * execution name. In the local runtime, lib/local/step-functions.ts registers a runner
 * (`registerLocalWorkflowRunner`) that executes the same definition in-process with aws-local-stepfunctions;
 * while one is registered, it is used instead of AWS. The SFN client is created once per process, lazily.
 */
import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { logger, traced } from '#observability/powertools';
import { config } from '#ports/config';

/** Execution input of the extraction state machine. */
export interface ExtractionWorkflowInput {
  orgId: string;
  jobId: string;
  documentId: string;
  /** Bucket and key of the uploaded PDF (`org/<orgId>/documents/<documentId>/<file>`). */
  bucket: string;
  key: string;
}

/** How a start went: `started` (a new execution or, in AWS, the same one again), `already_started` (the name was taken), `local`. */
export type WorkflowStart =
  | { mode: 'aws'; status: 'started'; executionArn: string }
  | { mode: 'aws'; status: 'already_started' }
  | { mode: 'local'; status: 'started' };

/**
 * Runs one extraction in-process and settles when it has ended. It must never leave the job `running`: on any
 * error it ends the job failed itself.
 */
export type LocalWorkflowRunner = (input: ExtractionWorkflowInput) => Promise<unknown>;

let localRunner: LocalWorkflowRunner | undefined;
let client: SFNClient | undefined;

/** Registers the local runner (or, with `undefined`, unregisters it: AWS is used again). */
export function registerLocalWorkflowRunner(runner: LocalWorkflowRunner | undefined): void {
  localRunner = runner;
}

/** The Step Functions client (`SFN_ENDPOINT` overrides the endpoint, e.g. a stub), captured by the Tracer when tracing is on. */
export function sfn(): SFNClient {
  if (!client) {
    const endpoint = config.stepFunctionsEndpoint;
    client = traced(new SFNClient(endpoint ? { endpoint } : {}));
  }
  return client;
}

/** Drops the cached client (tests switching endpoints or mocks). */
export function resetWorkflowClient(): void {
  client = undefined;
}

/**
 * Starts the extraction workflow for `input.jobId`.
 * - Local runner registered: hands the input to it and returns at once (fire-and-forget); a runner rejection is
 *   logged, never thrown here (the runner ends the job failed itself).
 * - Otherwise: `StartExecution` named `jobId`. Idempotent: Step Functions returns the same execution for the same
 *   name and input, and `ExecutionAlreadyExists` (same name, other input or a closed execution) is success too,
 *   so a redelivered S3 notification never runs a job twice.
 * @throws Error when `EXTRACTION_STATE_MACHINE_ARN` is unset (AWS mode), or the SDK's error (throttling, access)
 */
export async function startExtractionWorkflow(input: ExtractionWorkflowInput): Promise<WorkflowStart> {
  const runner = localRunner;
  if (runner) {
    void Promise.resolve()
      .then(() => runner(input))
      .catch((err: unknown) => logger.error('local extraction workflow failed', { orgId: input.orgId, jobId: input.jobId, error: err }));
    return { mode: 'local', status: 'started' };
  }
  const stateMachineArn = config.extractionStateMachineArn;
  try {
    const out = await sfn().send(new StartExecutionCommand({ stateMachineArn, name: input.jobId, input: JSON.stringify(input) }));
    return { mode: 'aws', status: 'started', executionArn: out.executionArn! };
  } catch (err) {
    if (err instanceof ExecutionAlreadyExists) return { mode: 'aws', status: 'already_started' };
    throw err;
  }
}
