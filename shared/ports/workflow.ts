/**
 * The workflow port: starts the contract-extraction state machine for a job (lib/extraction-definition.ts).
 * In AWS it calls Step Functions `StartExecution` on `EXTRACTION_STATE_MACHINE_ARN` with the job id as the
 * execution name, as one signed AWS JSON 1.0 request (shared/ports/signed-request.ts: `POST /`,
 * `X-Amz-Target: AWSStepFunctions.StartExecution`, signed for `states`) rather than through the SFN client, whose
 * schemas and error classes (21.7 KB minified) held the documents group over its init budget for this one call
 * (issue 24). Endpoint: `SFN_ENDPOINT`, else `AWS_ENDPOINT_URL_SFN` or `AWS_ENDPOINT_URL` as the SDK reads them (the
 * assembly runtime's gateway, lib/local/assembly/emulators/step-functions.ts), else `states.<region>`. In the local
 * runtime, lib/local/step-functions.ts registers a runner (`registerLocalWorkflowRunner`) that executes the same
 * definition in-process with aws-local-stepfunctions; while one is registered, it is used instead of AWS.
 */
import { logger } from '#observability/powertools';
import { config } from '#ports/config';
import { AwsServiceError, callAwsJson, serviceEndpoint } from '#ports/signed-request';

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

/** Time limit of one `StartExecution` attempt, ms (the API's request has 29 s in all; Step Functions answers in tens of ms). */
const START_TIMEOUT_MS = 5_000;

/** Registers the local runner (or, with `undefined`, unregisters it: AWS is used again). */
export function registerLocalWorkflowRunner(runner: LocalWorkflowRunner | undefined): void {
  localRunner = runner;
}

/**
 * Starts the extraction workflow for `input.jobId`.
 * - Local runner registered: hands the input to it and returns at once (fire-and-forget); a runner rejection is
 *   logged, never thrown here (the runner ends the job failed itself).
 * - Otherwise: `StartExecution` named `jobId` (retried on throttling and 5xx, `callAwsJson`). Idempotent: Step
 *   Functions returns the same execution for the same name and input, and `ExecutionAlreadyExists` (same name,
 *   other input or a closed execution) is success too, so a redelivered S3 notification never runs a job twice.
 * @throws ConfigurationError when `EXTRACTION_STATE_MACHINE_ARN` is unset (AWS mode); AwsServiceError naming Step
 *   Functions' error type and status for any other refusal (`AccessDeniedException`, `StateMachineDoesNotExist`,
 *   throttling after the last attempt); the network error after the last attempt
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
  const region = config.awsRegion ?? 'us-east-1';
  try {
    const out = await callAwsJson<{ executionArn: string; startDate: number }>({
      service: 'states',
      region,
      endpoint: serviceEndpoint('states', region, config.stepFunctionsEndpoint),
      target: 'AWSStepFunctions.StartExecution',
      version: '1.0',
      input: { stateMachineArn, name: input.jobId, input: JSON.stringify(input) },
      attemptTimeoutMs: START_TIMEOUT_MS,
    });
    return { mode: 'aws', status: 'started', executionArn: out.executionArn };
  } catch (err) {
    if (err instanceof AwsServiceError && err.name === 'ExecutionAlreadyExists') return { mode: 'aws', status: 'already_started' };
    throw err;
  }
}
