/**
 * Preflight lines `sms-sandbox` and `sms-spend-limit`: the AWS End User Messaging SMS account in the deploy region.
 * Both pass without a call when texting is off (no `smsOriginationIdentity`).
 *
 * - `sms-sandbox`: `DescribeAccountAttributes`, attribute `account_tier`. `SANDBOX` sends only to verified
 *   destination numbers: a warning until production access is granted (a support case).
 * - `sms-spend-limit`: `DescribeSpendLimits`, `TEXT_MESSAGE_MONTHLY_SPEND_LIMIT`. New accounts start at US$1 a
 *   month, after which every text fails until the month ends: a warning at or below `DEFAULT_TEXT_SPEND_LIMIT_USD`.
 *   Up to the limit's `MaxLimit` you raise it yourself (`SetTextMessageSpendLimitOverride`); beyond, AWS Support
 *   raises `MaxLimit` first.
 */
import { DescribeAccountAttributesCommand, DescribeSpendLimitsCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { ok, warn, type Check, type PreflightEnv } from './check.ts';

/** The monthly text spend limit of a new account, US$. */
export const DEFAULT_TEXT_SPEND_LIMIT_USD = 1;

const smsOff = ({ settings }: PreflightEnv) =>
  settings.messaging.smsOriginationIdentity ? undefined : ok('texting is off (no smsOriginationIdentity): not checked');

export const smsSandbox: Check = {
  name: 'sms-sandbox',
  permissions: ['sms-voice:DescribeAccountAttributes'],
  async run(env) {
    const off = smsOff(env);
    if (off) return off;
    const { AccountAttributes = [] } = await env.clients.sms.send(new DescribeAccountAttributesCommand({}));
    const tier = AccountAttributes.find((a) => a.Name?.toLowerCase() === 'account_tier')?.Value?.toUpperCase();
    if (tier === 'SANDBOX') {
      return warn(
        `End User Messaging SMS in ${env.region} is in the sandbox: texts reach only verified destination numbers`,
        'request production access: End User Messaging SMS console → Account settings → Request production access (an AWS Support case, answered in about a day)',
      );
    }
    return ok(`End User Messaging SMS account tier in ${env.region}: ${tier ?? 'unknown'}`);
  },
};

export const smsSpendLimit: Check = {
  name: 'sms-spend-limit',
  permissions: ['sms-voice:DescribeSpendLimits'],
  async run(env) {
    const off = smsOff(env);
    if (off) return off;
    const { SpendLimits = [] } = await env.clients.sms.send(new DescribeSpendLimitsCommand({}));
    const limit = SpendLimits.find((l) => l.Name === 'TEXT_MESSAGE_MONTHLY_SPEND_LIMIT');
    const enforced = limit?.EnforcedLimit ?? DEFAULT_TEXT_SPEND_LIMIT_USD;
    const max = limit?.MaxLimit ?? enforced;
    if (enforced <= DEFAULT_TEXT_SPEND_LIMIT_USD) {
      const action =
        max > enforced
          ? `raise it (up to US$${max}): \`aws pinpoint-sms-voice-v2 set-text-message-spend-limit-override --region ${env.region} --monthly-limit <US$>\``
          : 'open an AWS Support case (service quota increase, End User Messaging SMS, "SMS monthly spend limit") with your expected monthly volume, then set the override with `aws pinpoint-sms-voice-v2 set-text-message-spend-limit-override --monthly-limit <US$>`';
      return warn(`the monthly text spend limit in ${env.region} is US$${enforced} (the default): texts fail once it is spent, until the month ends`, action);
    }
    return ok(`the monthly text spend limit in ${env.region} is US$${enforced} (AWS allows up to US$${max})`);
  },
};
