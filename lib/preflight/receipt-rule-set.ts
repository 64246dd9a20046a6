/**
 * Preflight line `ses-receipt-rule-set`: which SES receipt rule set is active in the region. An account has at
 * most one active rule set per region, and CloudFormation cannot activate one, so after deploy the operator runs
 * the stack output `InboundMailActivateCommand` (`aws ses set-active-receipt-rule-set --rule-set-name
 * <stackName>-inbound`, lib/messaging/inbound-mail.ts). If another set is active, that command switches it off and
 * every address it received mail for stops receiving: a warning naming the set and its recipients.
 * SES v1 `DescribeActiveReceiptRuleSet` (receipt rules have no SES v2 API). Not called when the stack receives no
 * mail (no `mailDomain` or `inboundMailDomain`: the stack then creates no rule set).
 */
import { DescribeActiveReceiptRuleSetCommand } from '@aws-sdk/client-ses';
import { ok, warn, type Check } from './check.ts';
import { NO_INBOUND_MAIL } from './ses-receiving.ts';

/** The rule set the stack creates: `<stackName>-inbound`. */
export const ruleSetNameOf = (stackName: string): string => `${stackName}-inbound`;

export const receiptRuleSet: Check = {
  name: 'ses-receipt-rule-set',
  permissions: ['ses:DescribeActiveReceiptRuleSet'],
  async run({ region, settings, clients }) {
    if (!settings.messaging.receivesMail) return ok(NO_INBOUND_MAIL);
    const ours = ruleSetNameOf(settings.stackName);
    const { Metadata, Rules = [] } = await clients.ses.send(new DescribeActiveReceiptRuleSetCommand({}));
    const active = Metadata?.Name;
    if (!active) return ok(`no receipt rule set is active in ${region}`, `after deploy, activate ${ours} (stack output InboundMailActivateCommand)`);
    if (active === ours) return ok(`${ours} is the active receipt rule set in ${region}`);
    const recipients = [...new Set(Rules.flatMap((r) => (r.Recipients?.length ? r.Recipients : ['every address'])))];
    return warn(
      `receipt rule set ${active} is active in ${region} (${Rules.length} rule${Rules.length === 1 ? '' : 's'}, for ${recipients.join(', ') || 'no recipient'}): activating ${ours} replaces it, and mail to those addresses stops being received`,
      `before running InboundMailActivateCommand, copy ${active}'s rules into ${ours} (\`aws ses describe-active-receipt-rule-set\`, then \`aws ses create-receipt-rule --rule-set-name ${ours} --rule …\` for each), or leave ${active} active and receive no replies`,
    );
  },
};
