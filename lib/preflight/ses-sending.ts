/**
 * Preflight line `ses-sending`: the account may send through Amazon SES in the deploy region, outside the sandbox.
 *
 * SES v2 `GetAccount`: `SendingEnabled` false (paused by AWS or by you) or `EnforcementStatus` `SHUTDOWN` fails;
 * `ProductionAccessEnabled` false is the sandbox (mail only to verified addresses, 200 messages per 24 hours, 1 per
 * second: SES Developer Guide, "Request production access (Moving out of the SES sandbox)"), a warning, as is
 * `PROBATION`. The sandbox is per region.
 */
import { GetAccountCommand } from '@aws-sdk/client-sesv2';
import { fail, ok, warn, type Check } from './check.ts';

export const sesSending: Check = {
  name: 'ses-sending',
  permissions: ['ses:GetAccount'],
  async run({ region, clients }) {
    const account = await clients.sesv2.send(new GetAccountCommand({}));
    const enforcement = account.EnforcementStatus ?? 'HEALTHY';
    if (account.SendingEnabled === false || enforcement === 'SHUTDOWN') {
      return fail(
        `SES sending is ${account.SendingEnabled === false ? 'disabled' : 'shut down'} for this account in ${region} (enforcement status ${enforcement})`,
        'open the SES console\'s Reputation metrics and the AWS Support case about it; if you paused it yourself: `aws sesv2 put-account-sending-attributes --sending-enabled`',
      );
    }
    const quota = account.SendQuota;
    const limits = `${quota?.Max24HourSend ?? '?'} messages per 24 h at ${quota?.MaxSendRate ?? '?'}/s`;
    if (!account.ProductionAccessEnabled) {
      const review = account.Details?.ReviewDetails;
      const pending = review?.Status === 'PENDING' ? `; request under review (case ${review.CaseId ?? '?'})` : review?.Status === 'DENIED' ? `; last request DENIED (case ${review.CaseId ?? '?'})` : '';
      return warn(
        `SES in ${region} is in the sandbox: mail reaches verified addresses only, ${limits}${pending}`,
        `request production access: SES console → Account dashboard → Request production access, or \`aws sesv2 put-account-details --region ${region} --production-access-enabled --mail-type TRANSACTIONAL --website-url <your site> --use-case-description "transaction notices to the parties of a real-estate deal"\``,
      );
    }
    if (enforcement === 'PROBATION') {
      return warn(`SES in ${region} is on probation (bounce or complaint rate too high); ${limits}`, 'see the SES console\'s Reputation metrics and fix the cause before AWS pauses sending');
    }
    return ok(`SES production access in ${region}, sending enabled, ${limits}`);
  },
};
