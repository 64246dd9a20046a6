/**
 * Preflight line `ses-identity`: the service's sender is an SES identity verified for sending, with Easy DKIM.
 *
 * - With `mailDomain` the stack creates that domain identity (lib/messaging/mail-sending.ts). Absent: fine, the
 *   deploy creates it. Present but not a resource of the stack (CloudFormation `ListStackResources`): the deploy
 *   would fail, CloudFormation cannot create an identity that exists. Present and the stack's: its status.
 * - Without `mailDomain` the sender `mailFromAddress` must be covered by an identity verified outside the stack:
 *   its domain or the address itself (SES authorizes a send against either). The `example.com` placeholder is never.
 * Status from SES v2 `GetEmailIdentity`: `VerifiedForSendingStatus`, `DkimAttributes.Status`.
 */
import { paginateListStackResources } from '@aws-sdk/client-cloudformation';
import { GetEmailIdentityCommand, type GetEmailIdentityCommandOutput } from '@aws-sdk/client-sesv2';
import { PLACEHOLDER_MAIL_DOMAIN } from '../messaging/settings.ts';
import type { AwsClients } from './clients.ts';
import { errorName, fail, ok, warn, type Check, type CheckResult } from './check.ts';

async function identityOf(clients: AwsClients, identity: string): Promise<GetEmailIdentityCommandOutput | undefined> {
  try {
    return await clients.sesv2.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
  } catch (err) {
    if (errorName(err) === 'NotFoundException') return undefined;
    throw err;
  }
}

/** Whether `stackName` exists and holds an `AWS::SES::EmailIdentity` named `identity`. */
async function stackOwns(clients: AwsClients, stackName: string, identity: string): Promise<boolean> {
  try {
    for await (const page of paginateListStackResources({ client: clients.cloudFormation }, { StackName: stackName })) {
      if (page.StackResourceSummaries?.some((r) => r.ResourceType === 'AWS::SES::EmailIdentity' && r.PhysicalResourceId === identity)) return true;
    }
    return false;
  } catch (err) {
    if (errorName(err) === 'ValidationError') return false; // no such stack
    throw err;
  }
}

function status(identity: string, found: GetEmailIdentityCommandOutput, region: string, byStack: boolean): CheckResult {
  const dkim = found.DkimAttributes?.Status ?? 'NOT_STARTED';
  if (found.VerifiedForSendingStatus) return ok(`${identity} is verified for sending in ${region} (DKIM ${dkim})`);
  const records = byStack ? 'the three CNAME records of the stack outputs MailDkim1..3' : `its DKIM CNAME records (\`aws sesv2 get-email-identity --email-identity ${identity}\` → DkimAttributes.Tokens)`;
  const action =
    dkim === 'FAILED' || dkim === 'TEMPORARY_FAILURE'
      ? `SES could not find ${records} in DNS: check each name and value exactly, then wait (SES retries for 72 hours)`
      : `publish ${records} at your DNS host; SES verifies within hours`;
  return warn(`${identity} is not verified for sending yet in ${region} (DKIM ${dkim}): sends from it fail`, action);
}

export const sesIdentity: Check = {
  name: 'ses-identity',
  permissions: ['ses:GetEmailIdentity', 'cloudformation:ListStackResources'],
  async run({ region, settings, clients }) {
    const { mailDomain, mailFromAddress } = settings.messaging;
    if (mailDomain) {
      const found = await identityOf(clients, mailDomain);
      if (!found) {
        return ok(`${mailDomain} is not an SES identity in ${region} yet: the deploy creates it (Easy DKIM)`, 'after deploy, publish the CNAME records of the outputs MailDkim1..3 and run preflight again');
      }
      if (!(await stackOwns(clients, settings.stackName, mailDomain))) {
        return fail(
          `${mailDomain} is already an SES identity in ${region}, outside stack ${settings.stackName}: CloudFormation cannot create it and the deploy fails`,
          `either deploy without -c mailDomain and with -c mailFromAddress=deals@${mailDomain} (sending through the existing identity), or delete it (\`aws sesv2 delete-email-identity --email-identity ${mailDomain}\`) and publish the new MailDkim1..3 records after deploy`,
        );
      }
      return status(mailDomain, found, region, true);
    }
    const domain = mailFromAddress.split('@')[1].toLowerCase();
    if (domain === PLACEHOLDER_MAIL_DOMAIN) {
      return warn(
        `no mailDomain or mailFromAddress: the service would send as ${mailFromAddress}, which SES refuses`,
        'deploy with -c mailDomain=<your domain> (the stack creates and DKIM-signs it), or -c mailFromAddress=<an address of an identity you verified>',
      );
    }
    for (const identity of [domain, mailFromAddress]) {
      const found = await identityOf(clients, identity);
      if (found) return status(identity, found, region, false);
    }
    return fail(
      `the sender ${mailFromAddress} is covered by no SES identity in ${region}: every email send would fail`,
      `deploy with -c mailDomain=${domain} (the stack creates the identity), or verify it yourself: \`aws sesv2 create-email-identity --email-identity ${domain} --region ${region}\``,
    );
  },
};
