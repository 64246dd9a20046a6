/**
 * Preflight line `lambda-concurrency`: the account's Lambda concurrency quota (Lambda `GetAccountSettings`) against
 * what the stack needs in the region.
 *
 * - Lambda keeps at least `LAMBDA_MIN_UNRESERVED` (10) executions unreserved: a reservation that would leave fewer
 *   fails ("Specified ReservedConcurrentExecutions for function decreases account's UnreservedConcurrentExecution
 *   below its minimum value of [10]"), and the deploy with it. So with `webhookReservedConcurrency` R, the
 *   account's `UnreservedConcurrentExecutions` must be ≥ R + 10, or the check fails. (Counted as for a first deploy:
 *   on a redeploy the stack's own reservation is already outside the unreserved pool.)
 * - Working minimum, a warning below it: the webhook delivery poller may hold `webhookConcurrency` executions at
 *   once (unless reserved), and the API functions need about `API_WORKING_CONCURRENCY` for the stage's steady
 *   rate. New accounts often have a quota of 10 in total.
 * The increase is the Service Quotas quota "Concurrent executions" (service `lambda`, code L-B99A9384).
 */
import { GetAccountSettingsCommand } from '@aws-sdk/client-lambda';
import { STAGE_THROTTLE } from '../edge-settings.ts';
import { fail, ok, warn, type Check } from './check.ts';

/** Lambda's floor of unreserved concurrency per account and region. */
export const LAMBDA_MIN_UNRESERVED = 10;
/** Service Quotas code of Lambda "Concurrent executions". */
export const CONCURRENCY_QUOTA_CODE = 'L-B99A9384';
/** Assumed mean API function duration, seconds: executions ≈ requests per second × seconds each (Little's law). */
const API_SECONDS_PER_REQUEST = 0.5;
/** Executions the API functions need at the `$default` stage's steady rate (100 req/s × 0.5 s = 50). */
export const API_WORKING_CONCURRENCY = Math.ceil(STAGE_THROTTLE.rateLimit * API_SECONDS_PER_REQUEST);

const increase = (region: string, total: number) =>
  `request a higher "Concurrent executions" quota (≥ ${total}): Service Quotas console, or \`aws service-quotas request-service-quota-increase --region ${region} --service-code lambda --quota-code ${CONCURRENCY_QUOTA_CODE} --desired-value ${total}\``;

export const lambdaConcurrency: Check = {
  name: 'lambda-concurrency',
  permissions: ['lambda:GetAccountSettings'],
  async run({ region, settings, clients }) {
    const { AccountLimit } = await clients.lambda.send(new GetAccountSettingsCommand({}));
    const quota = AccountLimit?.ConcurrentExecutions ?? 0;
    const unreserved = AccountLimit?.UnreservedConcurrentExecutions ?? quota;
    const reserved = settings.webhookReservedConcurrency ?? 0;
    const othersReserved = quota - unreserved;
    const state = `quota ${quota} concurrent executions in ${region}, ${unreserved} unreserved`;
    if (reserved > 0 && unreserved - reserved < LAMBDA_MIN_UNRESERVED) {
      return fail(
        `${state}: reserving ${reserved} for webhook delivery (webhookReservedConcurrency) would leave ${unreserved - reserved}, below Lambda's minimum of ${LAMBDA_MIN_UNRESERVED}, and the deploy would fail`,
        `deploy without -c webhookReservedConcurrency, or ${increase(region, othersReserved + reserved + LAMBDA_MIN_UNRESERVED + API_WORKING_CONCURRENCY)}`,
      );
    }
    // What must stay unreserved: the API's working share, plus the delivery poller's unless it has its own reservation.
    const needed = API_WORKING_CONCURRENCY + (reserved > 0 ? 0 : settings.webhookConcurrency);
    const left = unreserved - reserved;
    if (left < needed) {
      return warn(
        `${state}: ${left} left for the API functions${reserved > 0 ? '' : ` and up to ${settings.webhookConcurrency} webhook deliveries`}, under the ${needed} they need at the API's ${STAGE_THROTTLE.rateLimit} req/s: requests will be throttled (429/503)`,
        increase(region, othersReserved + reserved + needed),
      );
    }
    return ok(`${state}${reserved > 0 ? `, ${reserved} of them to be reserved for webhook delivery` : ''}: ≥ ${needed + reserved} needed`);
  },
};
