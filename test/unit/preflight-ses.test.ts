/**
 * Preflight lines `ses-sending`, `ses-identity`, `ses-receiving` and `ses-receipt-rule-set` (lib/preflight/ses-*.ts,
 * receipt-rule-set.ts) against mocked SES v2, SES v1 and CloudFormation: the exact requests and the advice printed
 * for the sandbox, paused sending, an identity the deploy would collide with or that is unverified, a region that
 * cannot receive, and another active receipt rule set.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { CloudFormationClient, ListStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { DescribeActiveReceiptRuleSetCommand, SESClient } from '@aws-sdk/client-ses';
import { GetAccountCommand, GetEmailIdentityCommand, NotFoundException, SESv2Client, type GetEmailIdentityCommandOutput } from '@aws-sdk/client-sesv2';
import { receiptRuleSet } from '#lib/preflight/receipt-rule-set';
import { sesIdentity } from '#lib/preflight/ses-identity';
import { NO_INBOUND_MAIL, SES_RECEIVING_REGIONS, sesReceiving } from '#lib/preflight/ses-receiving';
import { sesSending } from '#lib/preflight/ses-sending';
import { awsError, preflightEnv } from '#test/support/preflight';

const sesv2 = mockClient(SESv2Client);
const ses = mockClient(SESClient);
const cfn = mockClient(CloudFormationClient);
beforeEach(() => {
  sesv2.reset();
  ses.reset();
  cfn.reset();
});
afterAll(() => {
  sesv2.restore();
  ses.restore();
  cfn.restore();
});

const MAIL = { mailDomain: 'hillcountry.example' };
const QUOTA = { Max24HourSend: 50000, MaxSendRate: 14, SentLast24Hours: 0 };
const notFound = () => new NotFoundException({ message: 'Email identity not found', $metadata: { httpStatusCode: 404 } });
const identity = (verified: boolean, dkim: 'SUCCESS' | 'PENDING' | 'FAILED'): GetEmailIdentityCommandOutput => ({
  $metadata: {},
  IdentityType: 'DOMAIN',
  VerifiedForSendingStatus: verified,
  DkimAttributes: { Status: dkim, SigningEnabled: true, Tokens: ['t1', 't2', 't3'] },
});

describe('ses-sending', () => {
  it('is OK with production access, quoting the quota', async () => {
    sesv2.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: true, EnforcementStatus: 'HEALTHY', SendQuota: QUOTA });
    expect(await sesSending.run(preflightEnv())).toEqual({ status: 'OK', finding: 'SES production access in us-east-1, sending enabled, 50000 messages per 24 h at 14/s', action: undefined });
    expect(sesv2).toHaveReceivedCommandExactlyOnceWith(GetAccountCommand, {});
  });

  it('warns in the sandbox and says how to request production access in that region', async () => {
    sesv2.on(GetAccountCommand).resolves({ ProductionAccessEnabled: false, SendingEnabled: true, SendQuota: { Max24HourSend: 200, MaxSendRate: 1 } });
    const result = await sesSending.run(preflightEnv({}, 'us-west-2'));
    expect(result.status).toBe('WARN');
    expect(result.finding).toBe('SES in us-west-2 is in the sandbox: mail reaches verified addresses only, 200 messages per 24 h at 1/s');
    expect(result.action).toContain('aws sesv2 put-account-details --region us-west-2 --production-access-enabled --mail-type TRANSACTIONAL');
  });

  it('names a pending production-access case', async () => {
    sesv2.on(GetAccountCommand).resolves({ ProductionAccessEnabled: false, SendingEnabled: true, SendQuota: QUOTA, Details: { ReviewDetails: { Status: 'PENDING', CaseId: '1234567890' } } });
    expect((await sesSending.run(preflightEnv())).finding).toContain('; request under review (case 1234567890)');
  });

  it('fails when sending is disabled, even with production access', async () => {
    sesv2.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: false, EnforcementStatus: 'SHUTDOWN', SendQuota: QUOTA });
    const result = await sesSending.run(preflightEnv());
    expect(result).toMatchObject({ status: 'FAIL', finding: 'SES sending is disabled for this account in us-east-1 (enforcement status SHUTDOWN)' });
    expect(result.action).toContain('aws sesv2 put-account-sending-attributes --sending-enabled');
  });

  it('warns on probation', async () => {
    sesv2.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: true, EnforcementStatus: 'PROBATION', SendQuota: QUOTA });
    expect((await sesSending.run(preflightEnv())).status).toBe('WARN');
  });
});

describe('ses-identity', () => {
  it('with mailDomain not yet an identity: OK, the deploy creates it; says to publish MailDkim1..3', async () => {
    sesv2.on(GetEmailIdentityCommand).rejects(notFound());
    const result = await sesIdentity.run(preflightEnv({ mailDomain: 'hillcountry.example' }));
    expect(sesv2).toHaveReceivedCommandExactlyOnceWith(GetEmailIdentityCommand, { EmailIdentity: 'hillcountry.example' });
    expect(cfn).not.toHaveReceivedAnyCommand();
    expect(result).toEqual({
      status: 'OK',
      finding: 'hillcountry.example is not an SES identity in us-east-1 yet: the deploy creates it (Easy DKIM)',
      action: 'after deploy, publish the CNAME records of the outputs MailDkim1..3 and run preflight again',
    });
  });

  it('fails when mailDomain already exists outside the stack (the deploy could not create it)', async () => {
    sesv2.on(GetEmailIdentityCommand).resolves(identity(true, 'SUCCESS'));
    cfn.on(ListStackResourcesCommand).rejects(awsError('ValidationError', 'Stack with id tcs-prod does not exist'));
    const result = await sesIdentity.run(preflightEnv({ mailDomain: 'hillcountry.example' }));
    expect(cfn).toHaveReceivedCommandWith(ListStackResourcesCommand, { StackName: 'tcs-prod' });
    expect(result.status).toBe('FAIL');
    expect(result.finding).toBe('hillcountry.example is already an SES identity in us-east-1, outside stack tcs-prod: CloudFormation cannot create it and the deploy fails');
    expect(result.action).toContain('-c mailFromAddress=deals@hillcountry.example');
    expect(result.action).toContain('aws sesv2 delete-email-identity --email-identity hillcountry.example');
  });

  it('reads every page of the stack’s resources to find the identity it owns, then reports DKIM pending', async () => {
    sesv2.on(GetEmailIdentityCommand).resolves(identity(false, 'PENDING'));
    cfn
      .on(ListStackResourcesCommand, { StackName: 'tcs-prod', NextToken: undefined })
      .resolves({ StackResourceSummaries: [{ LogicalResourceId: 'Table', ResourceType: 'AWS::DynamoDB::Table', PhysicalResourceId: 'tcs-prod-table', ResourceStatus: 'CREATE_COMPLETE', LastUpdatedTimestamp: new Date() }], NextToken: 'page2' })
      .on(ListStackResourcesCommand, { StackName: 'tcs-prod', NextToken: 'page2' })
      .resolves({ StackResourceSummaries: [{ LogicalResourceId: 'MailIdentity', ResourceType: 'AWS::SES::EmailIdentity', PhysicalResourceId: 'hillcountry.example', ResourceStatus: 'CREATE_COMPLETE', LastUpdatedTimestamp: new Date() }] });
    const result = await sesIdentity.run(preflightEnv({ mailDomain: 'hillcountry.example' }));
    expect(cfn).toHaveReceivedCommandTimes(ListStackResourcesCommand, 2);
    expect(result).toEqual({
      status: 'WARN',
      finding: 'hillcountry.example is not verified for sending yet in us-east-1 (DKIM PENDING): sends from it fail',
      action: 'publish the three CNAME records of the stack outputs MailDkim1..3 at your DNS host; SES verifies within hours',
    });
  });

  it('is OK for the stack’s verified domain', async () => {
    sesv2.on(GetEmailIdentityCommand).resolves(identity(true, 'SUCCESS'));
    cfn.on(ListStackResourcesCommand).resolves({ StackResourceSummaries: [{ LogicalResourceId: 'Id', ResourceType: 'AWS::SES::EmailIdentity', PhysicalResourceId: 'hillcountry.example', ResourceStatus: 'CREATE_COMPLETE', LastUpdatedTimestamp: new Date() }] });
    expect(await sesIdentity.run(preflightEnv({ mailDomain: 'hillcountry.example' }))).toMatchObject({ status: 'OK', finding: 'hillcountry.example is verified for sending in us-east-1 (DKIM SUCCESS)' });
  });

  it('warns that the example.com placeholder cannot send, without calling AWS', async () => {
    const result = await sesIdentity.run(preflightEnv());
    expect(result).toMatchObject({ status: 'WARN', finding: 'no mailDomain or mailFromAddress: the service would send as deals@example.com, which SES refuses' });
    expect(sesv2).not.toHaveReceivedAnyCommand();
  });

  it('without mailDomain, looks up the sender’s domain, then the address', async () => {
    sesv2.on(GetEmailIdentityCommand, { EmailIdentity: 'brokerage.example' }).rejects(notFound());
    sesv2.on(GetEmailIdentityCommand, { EmailIdentity: 'tc@brokerage.example' }).resolves({ ...identity(false, 'FAILED'), IdentityType: 'EMAIL_ADDRESS' });
    const result = await sesIdentity.run(preflightEnv({ mailFromAddress: 'tc@brokerage.example' }));
    expect(sesv2).toHaveReceivedNthCommandWith(GetEmailIdentityCommand, 1, { EmailIdentity: 'brokerage.example' });
    expect(sesv2).toHaveReceivedNthCommandWith(GetEmailIdentityCommand, 2, { EmailIdentity: 'tc@brokerage.example' });
    expect(result.status).toBe('WARN');
    expect(result.action).toContain('SES could not find its DKIM CNAME records');
  });

  it('fails when no identity covers the sender', async () => {
    sesv2.on(GetEmailIdentityCommand).rejects(notFound());
    const result = await sesIdentity.run(preflightEnv({ mailFromAddress: 'tc@brokerage.example' }));
    expect(result).toMatchObject({ status: 'FAIL', finding: 'the sender tc@brokerage.example is covered by no SES identity in us-east-1: every email send would fail' });
    expect(result.action).toContain('aws sesv2 create-email-identity --email-identity brokerage.example --region us-east-1');
  });
});

describe('ses-receiving', () => {
  it('is OK in a receiving region and gives the MX record of the inbound domain', async () => {
    const result = await sesReceiving.run(preflightEnv({ mailDomain: 'hillcountry.example' }, 'eu-west-1'));
    expect(result).toEqual({ status: 'OK', finding: 'SES receives email in eu-west-1', action: 'after deploy, point the MX record of reply.hillcountry.example at inbound-smtp.eu-west-1.amazonaws.com (priority 10)' });
  });

  it('has nothing to check when the stack receives no mail', async () => {
    expect(await sesReceiving.run(preflightEnv({}, 'ap-east-1'))).toMatchObject({ status: 'OK', finding: NO_INBOUND_MAIL });
  });

  it('warns in a region without SES receiving', async () => {
    expect(SES_RECEIVING_REGIONS.has('ap-east-1')).toBe(false);
    const result = await sesReceiving.run(preflightEnv({ inboundMailDomain: 'replies.brokerage.example' }, 'ap-east-1'));
    expect(result.status).toBe('WARN');
    expect(result.finding).toBe('SES email receiving is not listed for ap-east-1: replies to replies.brokerage.example would have nowhere to arrive');
    expect(result.action).toContain('https://docs.aws.amazon.com/general/latest/gr/ses.html#ses_region');
  });
});

describe('ses-receipt-rule-set', () => {
  it('does not look when the stack receives no mail (it creates no rule set then)', async () => {
    expect(await receiptRuleSet.run(preflightEnv())).toEqual({ status: 'OK', finding: NO_INBOUND_MAIL, action: undefined });
    expect(ses).not.toHaveReceivedAnyCommand();
  });

  it('is OK when none is active, and says to activate the stack’s after deploy', async () => {
    ses.on(DescribeActiveReceiptRuleSetCommand).resolves({});
    expect(await receiptRuleSet.run(preflightEnv(MAIL))).toEqual({ status: 'OK', finding: 'no receipt rule set is active in us-east-1', action: 'after deploy, activate tcs-prod-inbound (stack output InboundMailActivateCommand)' });
    expect(ses).toHaveReceivedCommandExactlyOnceWith(DescribeActiveReceiptRuleSetCommand, {});
  });

  it('is OK when the stack’s own set is active', async () => {
    ses.on(DescribeActiveReceiptRuleSetCommand).resolves({ Metadata: { Name: 'tcs-prod-inbound' }, Rules: [{ Name: 'store-replies', Recipients: ['reply.example.com'] }] });
    expect(await receiptRuleSet.run(preflightEnv(MAIL))).toMatchObject({ status: 'OK', finding: 'tcs-prod-inbound is the active receipt rule set in us-east-1' });
  });

  it('warns that activating ours replaces another active set, naming its recipients', async () => {
    ses.on(DescribeActiveReceiptRuleSetCommand).resolves({
      Metadata: { Name: 'helpdesk', CreatedTimestamp: new Date('2025-03-01T00:00:00Z') },
      Rules: [
        { Name: 'support', Recipients: ['support@brokerage.example', 'help.brokerage.example'] },
        { Name: 'catch-all' },
      ],
    });
    const result = await receiptRuleSet.run(preflightEnv(MAIL));
    expect(result.status).toBe('WARN');
    expect(result.finding).toBe(
      'receipt rule set helpdesk is active in us-east-1 (2 rules, for support@brokerage.example, help.brokerage.example, every address): activating tcs-prod-inbound replaces it, and mail to those addresses stops being received',
    );
    expect(result.action).toContain("copy helpdesk's rules into tcs-prod-inbound");
  });
});
