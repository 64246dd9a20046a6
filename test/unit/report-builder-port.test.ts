/**
 * The report-builder port (shared/ports/report-builder.ts) against a Lambda endpoint on 127.0.0.1
 * (`AWS_ENDPOINT_URL_LAMBDA`): the Invoke request it signs itself is the one the SDK's Lambda client sends (method,
 * path with the encoded alias ARN, invocation type, body) and is signed for `lambda` in the region; each worker is
 * named by its variable; a function error is `ReportBuildFailed` with the worker's error type, a refusal
 * `LambdaInvokeError` with Lambda's error type; registered local workers are used instead of Lambda.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { buildReportPdf, buildReportZip, LambdaInvokeError, registerLocalReportWorkers, ReportBuildFailed, type BuiltReport, type ReportRequest } from '#ports/report-builder';
import { startAwsStandIn, type AwsStandIn, type RecordedRequest } from './aws-stand-in.ts';

const PDF_ARN = 'arn:aws:lambda:us-east-1:123456789012:function:tcs-ReportsPdfFunction-AbC:live';
const ZIP_ARN = 'arn:aws:lambda:us-east-1:123456789012:function:tcs-ReportsZipFunction-XyZ:live';
const request: ReportRequest = { report: 'communication-log', orgId: 'org-1', transaction: { id: 't-1', address: '88 Mockingbird Ct', status: 'active' }, from: null, to: '2026-11-27T23:59:59.999Z', generatedAt: '2026-11-27T08:00:00.000Z' };
const built: BuiltReport = { key: 'reports/org-1/t-1/11111111-2222-4333-8444-555555555555/communication-log.pdf', fileName: 'communication-log.pdf', sizeBytes: 1234, messageCount: 3, documentCount: 0 };

let lambda: AwsStandIn;
let seen: RecordedRequest[];
let endpoint: string;

beforeAll(async () => {
  lambda = await startAwsStandIn('application/json');
  ({ endpoint, seen } = lambda);
});
afterAll(() => lambda.close());
beforeEach(() => {
  lambda.reset([{ status: 200, body: built }]);
  registerLocalReportWorkers(undefined);
  vi.stubEnv('AWS_ENDPOINT_URL_LAMBDA', endpoint);
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY');
  vi.stubEnv('AWS_SESSION_TOKEN', 'session-token');
  vi.stubEnv('REPORT_PDF_FUNCTION', PDF_ARN);
  vi.stubEnv('REPORT_ZIP_FUNCTION', ZIP_ARN);
});
afterEach(() => {
  vi.unstubAllEnvs();
  registerLocalReportWorkers(undefined);
});

describe('Lambda Invoke, signed by the port', () => {
  it('sends what the SDK client sends for the same Invoke, signed for lambda, and answers the payload', async () => {
    expect(await buildReportPdf(request)).toEqual(built);
    const client = new LambdaClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'x', sessionToken: 'session-token' }, maxAttempts: 1 });
    await client.send(new InvokeCommand({ FunctionName: PDF_ARN, InvocationType: 'RequestResponse', Payload: Buffer.from(JSON.stringify(request)) }));
    const [ours, sdk] = seen;
    expect(ours.method).toBe(sdk.method);
    expect(ours.url).toBe(sdk.url);
    expect(ours.url).toBe(`/2015-03-31/functions/${encodeURIComponent(PDF_ARN)}/invocations`);
    expect(ours.headers['x-amz-invocation-type']).toBe('RequestResponse');
    expect(ours.headers['x-amz-invocation-type']).toBe(sdk.headers['x-amz-invocation-type']);
    expect(JSON.parse(ours.body)).toEqual(request);
    expect(ours.body).toBe(sdk.body);
    expect(ours.headers['x-amz-security-token']).toBe('session-token');
    expect(ours.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/lambda\/aws4_request, SignedHeaders=[^,]*host;[^,]*x-amz-date;[^,]*x-amz-invocation-type[^,]*, Signature=[0-9a-f]{64}$/);
  });

  it('names each worker by its own variable', async () => {
    await buildReportZip({ ...request, pdfKey: built.key });
    expect(seen[0].url).toBe(`/2015-03-31/functions/${encodeURIComponent(ZIP_ARN)}/invocations`);
    expect(JSON.parse(seen[0].body)).toEqual({ ...request, pdfKey: built.key });
  });

  it('a function error is ReportBuildFailed with the worker\'s error type and message', async () => {
    lambda.reset([{ status: 200, headers: { 'x-amz-function-error': 'Unhandled' }, body: { errorType: 'S3RequestError', errorMessage: 'S3 PUT reports/…: AccessDenied (403)', trace: [] } }]);
    const err = await buildReportPdf(request).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReportBuildFailed);
    expect(err).toMatchObject({ errorType: 'S3RequestError', message: expect.stringContaining('AccessDenied') });
  });

  it('a refusal is LambdaInvokeError named by Lambda\'s error type', async () => {
    lambda.reset([{ status: 404, headers: { 'x-amzn-errortype': 'ResourceNotFoundException:http://internal.amazon.com/coral/com.amazonaws.awslambda/' }, body: { Type: 'User', Message: 'Function not found' } }]);
    const err = await buildReportPdf(request).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LambdaInvokeError);
    expect(err).toMatchObject({ name: 'ResourceNotFoundException', status: 404, message: expect.stringContaining('Function not found') });
  });

  it('without the function variable it fails as a configuration error, before any request', async () => {
    vi.stubEnv('REPORT_PDF_FUNCTION', undefined);
    await expect(buildReportPdf(request)).rejects.toThrow('REPORT_PDF_FUNCTION is not set');
    expect(seen).toEqual([]);
  });
});

describe('local workers', () => {
  it('are used instead of Lambda while registered', async () => {
    const pdf = vi.fn(async () => built);
    const zip = vi.fn(async () => ({ ...built, fileName: 'x.zip' }));
    registerLocalReportWorkers({ 'report-pdf': pdf, 'report-zip': zip });
    expect(await buildReportPdf(request)).toEqual(built);
    expect((await buildReportZip({ ...request, pdfKey: built.key })).fileName).toBe('x.zip');
    expect(pdf).toHaveBeenCalledWith(request);
    expect(zip).toHaveBeenCalledWith({ ...request, pdfKey: built.key });
    expect(seen).toEqual([]);
  });
});
