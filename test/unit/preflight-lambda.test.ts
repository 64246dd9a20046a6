/**
 * Preflight line `lambda-concurrency` (lib/preflight/lambda-concurrency.ts) against a mocked Lambda
 * `GetAccountSettings`: a reservation Lambda would refuse fails, a quota under the working minimum warns (a new
 * account's 10), and the advice names the Service Quotas code and the value to ask for.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { API_WORKING_CONCURRENCY, lambdaConcurrency, LAMBDA_MIN_UNRESERVED } from '#lib/preflight/lambda-concurrency';
import { preflightEnv } from '#test/support/preflight';

const lambda = mockClient(LambdaClient);
beforeEach(() => lambda.reset());
afterAll(() => lambda.restore());

const account = (total: number, unreserved = total) => lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: total, UnreservedConcurrentExecutions: unreserved } });

describe('lambda-concurrency', () => {
  it('works from the stage rate and Lambda’s floor', () => {
    expect(API_WORKING_CONCURRENCY).toBe(50); // 100 req/s × 0.5 s
    expect(LAMBDA_MIN_UNRESERVED).toBe(10);
  });

  it('is OK on the default quota of 1,000', async () => {
    account(1000);
    expect(await lambdaConcurrency.run(preflightEnv())).toEqual({ status: 'OK', finding: 'quota 1000 concurrent executions in us-east-1, 1000 unreserved: ≥ 60 needed', action: undefined });
    expect(lambda).toHaveReceivedCommandExactlyOnceWith(GetAccountSettingsCommand, {});
  });

  it('warns on a new account’s 10 and says what to request from Service Quotas', async () => {
    account(10);
    const result = await lambdaConcurrency.run(preflightEnv());
    expect(result).toEqual({
      status: 'WARN',
      finding: 'quota 10 concurrent executions in us-east-1, 10 unreserved: 10 left for the API functions and up to 10 webhook deliveries, under the 60 they need at the API\'s 100 req/s: requests will be throttled (429/503)',
      action:
        'request a higher "Concurrent executions" quota (≥ 60): Service Quotas console, or `aws service-quotas request-service-quota-increase --region us-east-1 --service-code lambda --quota-code L-B99A9384 --desired-value 60`',
    });
  });

  it('counts a larger webhookConcurrency in the working minimum', async () => {
    account(100);
    const result = await lambdaConcurrency.run(preflightEnv({ webhookConcurrency: '80' }));
    expect(result.status).toBe('WARN');
    expect(result.action).toContain('--desired-value 130');
  });

  it('fails when webhookReservedConcurrency would leave fewer than 10 unreserved', async () => {
    account(10);
    const result = await lambdaConcurrency.run(preflightEnv({ webhookReservedConcurrency: '10' }));
    expect(result.status).toBe('FAIL');
    expect(result.finding).toBe(
      'quota 10 concurrent executions in us-east-1, 10 unreserved: reserving 10 for webhook delivery (webhookReservedConcurrency) would leave 0, below Lambda\'s minimum of 10, and the deploy would fail',
    );
    expect(result.action).toMatch(/^deploy without -c webhookReservedConcurrency, or request a higher "Concurrent executions" quota \(≥ 70\)/);
  });

  it('counts other functions’ reservations in the quota to request', async () => {
    account(1000, 15); // 985 reserved by other functions in the account
    const result = await lambdaConcurrency.run(preflightEnv({ webhookReservedConcurrency: 10 }));
    expect(result.status).toBe('FAIL');
    expect(result.action).toContain('--desired-value 1055'); // 985 + 10 + 10 + 50
  });

  it('is OK with a reservation the account can afford', async () => {
    account(1000);
    expect(await lambdaConcurrency.run(preflightEnv({ webhookReservedConcurrency: 20 }))).toMatchObject({
      status: 'OK',
      finding: 'quota 1000 concurrent executions in us-east-1, 1000 unreserved, 20 of them to be reserved for webhook delivery: ≥ 70 needed',
    });
  });
});
