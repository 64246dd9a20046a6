/**
 * Preflight line `ses-receiving`: Amazon SES can receive email in the deploy region, so replies to the deals'
 * reply addresses (`inboundMailDomain`) reach the receipt rule. Only when the stack receives mail (`mailDomain` or
 * `inboundMailDomain` set); otherwise OK without a look.
 *
 * SES receives mail only in some regions: the "Email Receiving endpoints" table of "Amazon Simple Email Service
 * endpoints and quotas", https://docs.aws.amazon.com/general/latest/gr/ses.html#ses_region (linked from the SES
 * Developer Guide, "Regions and Amazon SES", https://docs.aws.amazon.com/ses/latest/dg/regions.html). AWS adds
 * regions to that table over time, so a region missing from `SES_RECEIVING_REGIONS` is a warning that says to check
 * the page, not a failure.
 */
import { ok, warn, type Check } from './check.ts';

/** The finding when the stack receives no mail (lib/messaging/settings.ts `receivesMail`). */
export const NO_INBOUND_MAIL = 'the stack receives no mail (neither mailDomain nor inboundMailDomain is set): no receipt rule set, nothing to check';

/**
 * Regions with an `inbound-smtp.<region>.amazonaws.com` endpoint, compiled in 2026-11 from the table cited above and
 * the endpoints seen answering MX traffic; extend it when AWS lists a new one.
 */
export const SES_RECEIVING_REGIONS: ReadonlySet<string> = new Set([
  'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'ca-central-1', 'sa-east-1',
  'eu-west-1', 'eu-west-2', 'eu-west-3', 'eu-central-1', 'eu-north-1',
  'ap-south-1', 'ap-southeast-1', 'ap-southeast-2', 'ap-southeast-3', 'ap-northeast-1', 'ap-northeast-2',
]);

export const sesReceiving: Check = {
  name: 'ses-receiving',
  permissions: [],
  async run({ region, settings }) {
    const { inboundMailDomain: domain, receivesMail } = settings.messaging;
    if (!receivesMail) return ok(NO_INBOUND_MAIL);
    if (SES_RECEIVING_REGIONS.has(region)) {
      return ok(`SES receives email in ${region}`, `after deploy, point the MX record of ${domain} at inbound-smtp.${region}.amazonaws.com (priority 10)`);
    }
    return warn(
      `SES email receiving is not listed for ${region}: replies to ${domain} would have nowhere to arrive`,
      'deploy in a receiving region (e.g. us-east-1, us-west-2, eu-west-1), or check https://docs.aws.amazon.com/general/latest/gr/ses.html#ses_region in case AWS added it since',
    );
  },
};
