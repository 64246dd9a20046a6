/**
 * The workflow port in AWS mode (shared/ports/workflow.ts over shared/ports/signed-request.ts) against a Step
 * Functions stand-in on 127.0.0.1: `StartExecution` is the request the SDK's SFN client sends (AWS JSON 1.0: `POST /`,
 * content type, `X-Amz-Target`, body), validly signed for `states` over exactly the headers sent; the execution is
 * named by the job id; `ExecutionAlreadyExists` is `already_started`; throttling and 5xx answers are retried (3
 * attempts in all), other refusals thrown at once with Step Functions' error type; the endpoint overrides are read as
 * the SDK reads them. The local-runner mode is tested in test/integration/extraction-workflow.test.ts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { SignatureV4 } from '@smithy/signature-v4';
import { registerLocalWorkflowRunner, startExtractionWorkflow, type ExtractionWorkflowInput } from '#ports/workflow';
import { AWS_JSON_MAX_ATTEMPTS, AwsServiceError, serviceEndpoint } from '#ports/signed-request';
import { Sha256 } from '#ports/s3-object-requests';
import { startAwsStandIn, type AwsStandIn, type RecordedRequest, type StandInAnswer as Answer } from './aws-stand-in.ts';

const ARN = 'arn:aws:states:us-east-1:123456789012:stateMachine:Extraction';
const INPUT: ExtractionWorkflowInput = { orgId: 'org-1', jobId: 'job-7f3a', documentId: 'doc-1', bucket: 'tcs-documents', key: 'org/org-1/documents/doc-1/contract.pdf' };
const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };

let sfn: AwsStandIn;
let endpoint: string;
let seen: RecordedRequest[];

const started = (name = INPUT.jobId): Answer => ({ status: 200, body: { executionArn: `${ARN.replace(':stateMachine:', ':execution:')}:${name}`, startDate: 1_795_000_000.123 } });
const refused = (type: string, status = 400, message = 'refused'): Answer => ({ status, body: { __type: type, message } });

/**
 * Signs again, with the SDK's signer, what the server received (the headers the Authorization names, the body, the
 * `x-amz-date`): the signature matches only if every signed header and the body reached the service unchanged. The
 * payload hash is computed again from the body received, not taken from its `x-amz-content-sha256` header.
 */
async function resign(request: RecordedRequest): Promise<string> {
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(String(request.headers.authorization))![1].split(';');
  const headers = Object.fromEntries(signedHeaders.filter((h) => h !== 'x-amz-content-sha256').map((h) => [h, String(request.headers[h])]));
  const amzDate = String(request.headers['x-amz-date']);
  const signingDate = new Date(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
  const url = new URL(request.url, endpoint);
  const signer = new SignatureV4({ service: 'states', region: 'us-east-1', credentials: CREDENTIALS, sha256: Sha256 });
  const signed = await signer.sign({ method: request.method, protocol: url.protocol, hostname: url.hostname, port: Number(url.port), path: url.pathname, query: {}, headers, body: request.body }, { signingDate });
  return String(signed.headers.authorization);
}

beforeAll(async () => {
  sfn = await startAwsStandIn('application/x-amz-json-1.0');
  ({ endpoint, seen } = sfn);
});
afterAll(() => sfn.close());
beforeEach(() => {
  sfn.reset([started()]);
  registerLocalWorkflowRunner(undefined);
  vi.stubEnv('SFN_ENDPOINT', endpoint);
  vi.stubEnv('AWS_ENDPOINT_URL_SFN', undefined);
  vi.stubEnv('AWS_ENDPOINT_URL', undefined);
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', CREDENTIALS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', CREDENTIALS.secretAccessKey);
  vi.stubEnv('AWS_SESSION_TOKEN', CREDENTIALS.sessionToken);
  vi.stubEnv('EXTRACTION_STATE_MACHINE_ARN', ARN);
});
afterEach(() => vi.unstubAllEnvs());

describe('StartExecution, signed by the port', () => {
  it('sends what the SDK client sends, named by the job id, validly signed for states, and answers the execution', async () => {
    expect(await startExtractionWorkflow(INPUT)).toEqual({ mode: 'aws', status: 'started', executionArn: `arn:aws:states:us-east-1:123456789012:execution:Extraction:${INPUT.jobId}` });
    const client = new SFNClient({ endpoint, region: 'us-east-1', credentials: CREDENTIALS, maxAttempts: 1 });
    await client.send(new StartExecutionCommand({ stateMachineArn: ARN, name: INPUT.jobId, input: JSON.stringify(INPUT) }));
    const [ours, sdk] = seen;
    expect(ours.method).toBe('POST');
    expect(ours.url).toBe('/');
    expect(ours.url).toBe(sdk.url);
    expect(ours.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(ours.headers['x-amz-target']).toBe('AWSStepFunctions.StartExecution');
    for (const h of ['content-type', 'x-amz-target']) expect(ours.headers[h], h).toBe(sdk.headers[h]);
    expect(JSON.parse(ours.body)).toEqual({ stateMachineArn: ARN, name: INPUT.jobId, input: JSON.stringify(INPUT) });
    expect(JSON.parse(ours.body)).toEqual(JSON.parse(sdk.body));
    expect(ours.headers['x-amz-security-token']).toBe('session-token');
    expect(ours.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/states\/aws4_request, SignedHeaders=[^,]*content-type;[^,]*host;[^,]*x-amz-date;[^,]*x-amz-target[^,]*, Signature=[0-9a-f]{64}$/);
    expect(await resign(ours)).toBe(ours.headers.authorization);
    expect(await resign({ ...ours, body: ours.body.replace(INPUT.jobId, 'job-other') })).not.toBe(ours.headers.authorization); // the check can fail
  });

  it('treats ExecutionAlreadyExists (a namespaced __type, as Smithy allows) as already started: a redelivered notification', async () => {
    sfn.reset([refused('com.amazonaws.swf.service.v2.model#ExecutionAlreadyExists', 400, `Execution Already Exists: '${ARN}:${INPUT.jobId}'`)]);
    expect(await startExtractionWorkflow(INPUT)).toEqual({ mode: 'aws', status: 'already_started' });
    expect(seen).toHaveLength(1);
  });

  it('retries a throttling answer, signing again, then succeeds', async () => {
    sfn.reset([refused('ThrottlingException', 400, 'Rate exceeded'), started()]);
    expect(await startExtractionWorkflow(INPUT)).toMatchObject({ mode: 'aws', status: 'started' });
    expect(seen).toHaveLength(2);
    expect(seen[1].body).toBe(seen[0].body);
    expect(await resign(seen[1])).toBe(seen[1].headers.authorization);
  });

  it(`gives up after ${AWS_JSON_MAX_ATTEMPTS} attempts on 5xx answers, throwing the last one`, async () => {
    sfn.reset([refused('ServiceUnavailable', 503, 'try later')]);
    const err = await startExtractionWorkflow(INPUT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AwsServiceError);
    expect(err).toMatchObject({ name: 'ServiceUnavailable', status: 503 });
    expect(seen).toHaveLength(AWS_JSON_MAX_ATTEMPTS);
  });

  it('throws AccessDeniedException with its type and status at once (not retried)', async () => {
    sfn.reset([{ status: 400, headers: { 'x-amzn-errortype': 'AccessDeniedException:http://internal.amazon.com/coral/com.amazonaws.swf.service.v2/' }, body: { message: 'User is not authorized to perform: states:StartExecution' } }]);
    const err = await startExtractionWorkflow(INPUT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AwsServiceError);
    expect(err).toMatchObject({ name: 'AccessDeniedException', status: 400, message: expect.stringContaining('states:StartExecution') });
    expect((err as Error).message).toContain('AccessDeniedException (400)');
    expect(seen).toHaveLength(1);
  });

  it('without the state machine variable it fails as a configuration error, before any request', async () => {
    vi.stubEnv('EXTRACTION_STATE_MACHINE_ARN', undefined);
    await expect(startExtractionWorkflow(INPUT)).rejects.toThrow('EXTRACTION_STATE_MACHINE_ARN is not set');
    expect(seen).toEqual([]);
  });
});

describe('endpoint', () => {
  it('AWS_ENDPOINT_URL (the assembly runtime’s gateway) is used when SFN_ENDPOINT is unset, as the SDK reads it', async () => {
    vi.stubEnv('SFN_ENDPOINT', undefined);
    vi.stubEnv('AWS_ENDPOINT_URL', endpoint);
    expect(await startExtractionWorkflow(INPUT)).toMatchObject({ status: 'started' });
    expect(seen).toHaveLength(1);
  });

  it('SFN_ENDPOINT wins over AWS_ENDPOINT_URL_SFN, which wins over AWS_ENDPOINT_URL', async () => {
    vi.stubEnv('AWS_ENDPOINT_URL', 'http://127.0.0.1:9');
    vi.stubEnv('AWS_ENDPOINT_URL_SFN', 'http://127.0.0.1:9');
    expect(await startExtractionWorkflow(INPUT)).toMatchObject({ status: 'started' });
    vi.stubEnv('SFN_ENDPOINT', undefined);
    vi.stubEnv('AWS_ENDPOINT_URL_SFN', endpoint);
    expect(await startExtractionWorkflow(INPUT)).toMatchObject({ status: 'started' });
    expect(seen).toHaveLength(2);
  });

  it('without an override, the regional endpoint of states (China regions on amazonaws.com.cn)', () => {
    expect(serviceEndpoint('states', 'eu-west-2').href).toBe('https://states.eu-west-2.amazonaws.com/');
    expect(serviceEndpoint('states', 'cn-north-1').href).toBe('https://states.cn-north-1.amazonaws.com.cn/');
    expect(serviceEndpoint('states', 'us-east-1', endpoint).href).toBe(`${endpoint}/`);
  });
});

describe('local runner', () => {
  it('is used instead of Step Functions while registered', async () => {
    const runs: ExtractionWorkflowInput[] = [];
    registerLocalWorkflowRunner(async (input) => void runs.push(input));
    expect(await startExtractionWorkflow(INPUT)).toEqual({ mode: 'local', status: 'started' });
    await vi.waitFor(() => expect(runs).toEqual([INPUT]));
    expect(seen).toEqual([]);
  });
});
