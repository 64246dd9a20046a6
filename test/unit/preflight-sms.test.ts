/**
 * Preflight lines `sms-sandbox`, `sms-spend-limit` and `sms-origination` (lib/preflight/sms-*.ts) against a mocked
 * End User Messaging SMS client: the sandbox tier, the US$1 default spend limit, and the configured origination
 * identity (missing, in another region, not ACTIVE, registration pending, wrong opt-out list, a pool, a sender ID).
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import {
  DescribeAccountAttributesCommand,
  DescribePhoneNumbersCommand,
  DescribePoolsCommand,
  DescribeRegistrationsCommand,
  DescribeSenderIdsCommand,
  DescribeSpendLimitsCommand,
  PinpointSMSVoiceV2Client,
  ResourceNotFoundException,
  type PhoneNumberInformation,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { smsSandbox, smsSpendLimit } from '#lib/preflight/sms-account';
import { parseOriginationIdentity, smsOrigination } from '#lib/preflight/sms-origination';
import { ACCOUNT, preflightEnv } from '#test/support/preflight';

const sms = mockClient(PinpointSMSVoiceV2Client);
beforeEach(() => sms.reset());
afterAll(() => sms.restore());

const PHONE_ID = 'phone-0123456789abcdef0123456789abcdef';
const POOL_ID = 'pool-fedcba9876543210fedcba9876543210';
const PHONE_ARN = `arn:aws:sms-voice:us-east-1:${ACCOUNT}:phone-number/${PHONE_ID}`;
const withSms = (extra: Record<string, unknown> = {}) => ({ smsOriginationIdentity: PHONE_ID, ...extra });

const number = (over: Partial<PhoneNumberInformation> = {}): PhoneNumberInformation => ({
  PhoneNumberArn: PHONE_ARN,
  PhoneNumberId: PHONE_ID,
  PhoneNumber: '+18885550100',
  Status: 'ACTIVE',
  IsoCountryCode: 'US',
  MessageType: 'TRANSACTIONAL',
  NumberCapabilities: ['SMS'],
  NumberType: 'TOLL_FREE',
  MonthlyLeasingPrice: '2.00',
  TwoWayEnabled: true,
  SelfManagedOptOutsEnabled: false,
  OptOutListName: 'Default',
  DeletionProtectionEnabled: false,
  RegistrationId: 'registration-0123456789abcdef0123456789abcdef',
  CreatedTimestamp: new Date('2026-10-01T00:00:00Z'),
  ...over,
});
const registration = (status: 'COMPLETE' | 'REVIEWING' | 'REQUIRES_UPDATES') =>
  sms.on(DescribeRegistrationsCommand).resolves({
    Registrations: [
      { RegistrationArn: 'arn:aws:sms-voice:us-east-1:111122223333:registration/registration-0123', RegistrationId: 'registration-0123456789abcdef0123456789abcdef', RegistrationType: 'US_TOLL_FREE_REGISTRATION', RegistrationStatus: status, CurrentVersionNumber: 1, CreatedTimestamp: new Date() },
    ],
  });

describe('sms-sandbox', () => {
  it('does not call AWS when texting is off', async () => {
    expect(await smsSandbox.run(preflightEnv())).toMatchObject({ status: 'OK', finding: 'texting is off (no smsOriginationIdentity): not checked' });
    expect(sms).not.toHaveReceivedAnyCommand();
  });

  it('warns in the sandbox and says how to leave it', async () => {
    sms.on(DescribeAccountAttributesCommand).resolves({ AccountAttributes: [{ Name: 'ACCOUNT_TIER', Value: 'SANDBOX' }] });
    const result = await smsSandbox.run(preflightEnv(withSms()));
    expect(sms).toHaveReceivedCommandExactlyOnceWith(DescribeAccountAttributesCommand, {});
    expect(result).toMatchObject({ status: 'WARN', finding: 'End User Messaging SMS in us-east-1 is in the sandbox: texts reach only verified destination numbers' });
    expect(result.action).toContain('Request production access');
  });

  it('is OK in production (the attribute name in any case)', async () => {
    sms.on(DescribeAccountAttributesCommand).resolves({ AccountAttributes: [{ Name: 'account_tier' as 'ACCOUNT_TIER', Value: 'PRODUCTION' }] });
    expect(await smsSandbox.run(preflightEnv(withSms()))).toMatchObject({ status: 'OK', finding: 'End User Messaging SMS account tier in us-east-1: PRODUCTION' });
  });
});

describe('sms-spend-limit', () => {
  it('warns at the US$1 default and says to raise the override up to the maximum', async () => {
    sms.on(DescribeSpendLimitsCommand).resolves({ SpendLimits: [{ Name: 'TEXT_MESSAGE_MONTHLY_SPEND_LIMIT', EnforcedLimit: 1, MaxLimit: 100, Overridden: false }] });
    const result = await smsSpendLimit.run(preflightEnv(withSms()));
    expect(sms).toHaveReceivedCommandExactlyOnceWith(DescribeSpendLimitsCommand, {});
    expect(result).toEqual({
      status: 'WARN',
      finding: 'the monthly text spend limit in us-east-1 is US$1 (the default): texts fail once it is spent, until the month ends',
      action: 'raise it (up to US$100): `aws pinpoint-sms-voice-v2 set-text-message-spend-limit-override --region us-east-1 --monthly-limit <US$>`',
    });
  });

  it('sends to AWS Support when the maximum is the default too', async () => {
    sms.on(DescribeSpendLimitsCommand).resolves({ SpendLimits: [{ Name: 'TEXT_MESSAGE_MONTHLY_SPEND_LIMIT', EnforcedLimit: 1, MaxLimit: 1, Overridden: false }] });
    expect((await smsSpendLimit.run(preflightEnv(withSms()))).action).toMatch(/^open an AWS Support case/);
  });

  it('is OK above the default, reading the text limit among the others', async () => {
    sms.on(DescribeSpendLimitsCommand).resolves({
      SpendLimits: [
        { Name: 'VOICE_MESSAGE_MONTHLY_SPEND_LIMIT', EnforcedLimit: 1, MaxLimit: 1, Overridden: false },
        { Name: 'TEXT_MESSAGE_MONTHLY_SPEND_LIMIT', EnforcedLimit: 250, MaxLimit: 1000, Overridden: true },
      ],
    });
    expect(await smsSpendLimit.run(preflightEnv(withSms()))).toMatchObject({ status: 'OK', finding: 'the monthly text spend limit in us-east-1 is US$250 (AWS allows up to US$1000)' });
  });
});

describe('sms-origination', () => {
  it('parses the identities settings accepts', () => {
    expect(parseOriginationIdentity(PHONE_ID)).toEqual({ kind: 'phone', id: PHONE_ID });
    expect(parseOriginationIdentity(POOL_ID)).toEqual({ kind: 'pool', id: POOL_ID });
    expect(parseOriginationIdentity(PHONE_ARN)).toEqual({ kind: 'phone', id: PHONE_ID, region: 'us-east-1' });
    expect(parseOriginationIdentity(`arn:aws:sms-voice:eu-west-1:${ACCOUNT}:sender-id/BROKER/GB`)).toEqual({ kind: 'sender-id', id: 'BROKER', country: 'GB', region: 'eu-west-1' });
  });

  it('warns when no identity is configured, without calling AWS', async () => {
    const result = await smsOrigination.run(preflightEnv());
    expect(result).toMatchObject({ status: 'WARN', finding: 'no smsOriginationIdentity: text sends answer 503' });
    expect(result.action).toContain('toll-free with toll-free verification, or 10DLC with a brand and campaign');
    expect(sms).not.toHaveReceivedAnyCommand();
  });

  it('is OK for an ACTIVE toll-free number whose verification is COMPLETE', async () => {
    sms.on(DescribePhoneNumbersCommand).resolves({ PhoneNumbers: [number()] });
    registration('COMPLETE');
    const result = await smsOrigination.run(preflightEnv(withSms({ smsOriginationIdentity: PHONE_ARN })));
    expect(sms).toHaveReceivedCommandExactlyOnceWith(DescribePhoneNumbersCommand, { PhoneNumberIds: [PHONE_ID] });
    expect(sms).toHaveReceivedCommandExactlyOnceWith(DescribeRegistrationsCommand, { RegistrationIds: ['registration-0123456789abcdef0123456789abcdef'] });
    expect(result).toEqual({ status: 'OK', finding: '+18885550100 (TOLL_FREE, US) is ACTIVE, toll-free verification COMPLETE, opt-out list Default', action: undefined });
  });

  it('warns while toll-free verification is under review', async () => {
    sms.on(DescribePhoneNumbersCommand).resolves({ PhoneNumbers: [number({ Status: 'PENDING' })] });
    registration('REVIEWING');
    expect(await smsOrigination.run(preflightEnv(withSms()))).toEqual({
      status: 'WARN',
      finding: '+18885550100 (TOLL_FREE, US) is PENDING; its toll-free verification registration-0123456789abcdef0123456789abcdef is REVIEWING: texts cannot be sent until it completes',
      action: 'wait: the carriers are reviewing it',
    });
  });

  it('says what to fix when a 10DLC registration requires updates', async () => {
    sms.on(DescribePhoneNumbersCommand).resolves({ PhoneNumbers: [number({ NumberType: 'TEN_DLC', PhoneNumber: '+15125550100' })] });
    registration('REQUIRES_UPDATES');
    const result = await smsOrigination.run(preflightEnv(withSms()));
    expect(result.status).toBe('WARN');
    expect(result.finding).toContain('its 10DLC brand and campaign registration registration-0123456789abcdef0123456789abcdef is REQUIRES_UPDATES');
    expect(result.action).toContain('fix the fields they name and resubmit');
  });

  it('warns on an ordinary US long code and offers the two programs', async () => {
    sms.on(DescribePhoneNumbersCommand).resolves({ PhoneNumbers: [number({ NumberType: 'LONG_CODE', RegistrationId: undefined })] });
    const result = await smsOrigination.run(preflightEnv(withSms()));
    expect(sms).not.toHaveReceivedCommand(DescribeRegistrationsCommand);
    expect(result.status).toBe('WARN');
    expect(result.finding).toBe('+18885550100 (LONG_CODE, US) is an ordinary US long code: carriers block application texts from it');
  });

  it('reminds to turn on two-way SMS after deploy', async () => {
    sms.on(DescribePhoneNumbersCommand).resolves({ PhoneNumbers: [number({ TwoWayEnabled: false, RegistrationId: undefined })] });
    const result = await smsOrigination.run(preflightEnv(withSms()));
    expect(result.status).toBe('OK');
    expect(result.action).toContain('--two-way-channel-arn <InboundSmsTopicArn>');
  });

  it('fails when the number uses another opt-out list than the stack authorizes', async () => {
    sms.on(DescribePhoneNumbersCommand).resolves({ PhoneNumbers: [number({ OptOutListName: 'BrokerageOptOuts' })] });
    expect(await smsOrigination.run(preflightEnv(withSms()))).toEqual({
      status: 'FAIL',
      finding: '+18885550100 (TOLL_FREE, US) uses opt-out list BrokerageOptOuts, but the stack authorizes sends on Default: every SendTextMessage would be denied',
      action: 'deploy with -c smsOptOutList=BrokerageOptOuts',
    });
  });

  it('fails when the number does not exist in the region', async () => {
    sms.on(DescribePhoneNumbersCommand).rejects(new ResourceNotFoundException({ message: 'not found', $metadata: {}, ResourceType: 'phone-number', ResourceId: PHONE_ID }));
    expect(await smsOrigination.run(preflightEnv(withSms()))).toMatchObject({ status: 'FAIL', finding: `phone number ${PHONE_ID} does not exist in us-east-1` });
  });

  it('fails on an identity ARN of another region, without calling AWS', async () => {
    const result = await smsOrigination.run(preflightEnv(withSms({ smsOriginationIdentity: PHONE_ARN }), 'us-west-2'));
    expect(result).toMatchObject({ status: 'FAIL', finding: 'smsOriginationIdentity is in us-east-1, but the stack deploys to us-west-2: texts cannot be sent from it' });
    expect(sms).not.toHaveReceivedAnyCommand();
  });

  it('checks a pool by id: ACTIVE is OK, another status warns', async () => {
    const pool = { PoolArn: `arn:aws:sms-voice:us-east-1:${ACCOUNT}:pool/${POOL_ID}`, PoolId: POOL_ID, MessageType: 'TRANSACTIONAL' as const, TwoWayEnabled: true, SelfManagedOptOutsEnabled: false, OptOutListName: 'Default', SharedRoutesEnabled: false, DeletionProtectionEnabled: false, CreatedTimestamp: new Date() };
    sms.on(DescribePoolsCommand).resolvesOnce({ Pools: [{ ...pool, Status: 'ACTIVE' }] }).resolvesOnce({ Pools: [{ ...pool, Status: 'CREATING' }] });
    const env = preflightEnv(withSms({ smsOriginationIdentity: POOL_ID }));
    expect(await smsOrigination.run(env)).toMatchObject({ status: 'OK', finding: `pool ${POOL_ID} is ACTIVE, opt-out list Default` });
    expect(await smsOrigination.run(env)).toMatchObject({ status: 'WARN', finding: `pool ${POOL_ID} is CREATING, not ACTIVE` });
    expect(sms).toHaveReceivedCommandWith(DescribePoolsCommand, { PoolIds: [POOL_ID] });
  });

  it('warns on an unregistered sender ID', async () => {
    sms.on(DescribeSenderIdsCommand).resolves({ SenderIds: [{ SenderIdArn: 'arn', SenderId: 'BROKER', IsoCountryCode: 'GB', MessageTypes: ['TRANSACTIONAL'], MonthlyLeasingPrice: '0', DeletionProtectionEnabled: false, Registered: false }] });
    const result = await smsOrigination.run(preflightEnv(withSms({ smsOriginationIdentity: `arn:aws:sms-voice:eu-west-2:${ACCOUNT}:sender-id/BROKER/GB` }), 'eu-west-2'));
    expect(sms).toHaveReceivedCommandExactlyOnceWith(DescribeSenderIdsCommand, { SenderIds: [{ SenderId: 'BROKER', IsoCountryCode: 'GB' }] });
    expect(result).toMatchObject({ status: 'WARN', finding: 'sender ID BROKER (GB) is not registered: countries that require registration drop its texts' });
  });
});
