/**
 * The AWS SMS and scheduler adapters (shared/ports/sms/aws.ts, shared/ports/scheduler/aws.ts) against mocked clients
 * (aws-sdk-client-mock): the exact `SendTextMessage`, `CreateSchedule` and `DeleteSchedule` inputs, the environment
 * they need, and which provider errors are permanent.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { ConflictException as SmsConflict, PinpointSMSVoiceV2Client, SendTextMessageCommand, ThrottlingException, ValidationException } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, InternalServerException, ResourceNotFoundException, SchedulerClient, ValidationException as ScheduleRefused } from '@aws-sdk/client-scheduler';
import { awsSms } from '#ports/sms/aws';
import { SmsRejected } from '#ports/sms';
import { awsScheduler, SCHEDULE_RETRIES } from '#ports/scheduler/aws';

const smsMock = mockClient(PinpointSMSVoiceV2Client);
const schedulerMock = mockClient(SchedulerClient);
const ENV_KEYS = ['SMS_ORIGINATION_IDENTITY', 'SMS_CONFIGURATION_SET', 'SCHEDULE_GROUP', 'SCHEDULER_ROLE_ARN', 'SCHEDULER_DLQ_ARN', 'SCHEDULE_TARGET_SCHEDULED_SEND_ARN'] as const;
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

const PHONE_ARN = 'arn:aws:sms-voice:us-east-1:111122223333:phone-number/phone-0123456789abcdef0123456789abcdef';
const ENV = {
  SMS_ORIGINATION_IDENTITY: PHONE_ARN,
  SMS_CONFIGURATION_SET: 'tcs-sms',
  SCHEDULE_GROUP: 'tcs-messages',
  SCHEDULER_ROLE_ARN: 'arn:aws:iam::111122223333:role/tcs-scheduler',
  SCHEDULER_DLQ_ARN: 'arn:aws:sqs:us-east-1:111122223333:tcs-scheduler-dlq',
  SCHEDULE_TARGET_SCHEDULED_SEND_ARN: 'arn:aws:lambda:us-east-1:111122223333:function:tcs-scheduled-send',
};

beforeEach(() => {
  smsMock.reset();
  schedulerMock.reset();
  Object.assign(process.env, ENV);
});
afterAll(() => {
  smsMock.restore();
  schedulerMock.restore();
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

describe('awsSms', () => {
  it('sends a transactional text from the origination identity in the configuration set', async () => {
    smsMock.on(SendTextMessageCommand).resolves({ MessageId: 'sms-0001' });
    const sender = awsSms();
    expect(sender.answersKeywords).toBe(true);
    expect(await sender.send({ to: '+15125550143', body: 'Docs are ready' })).toEqual({ provider: 'sms', providerMessageId: 'sms-0001', from: null });
    expect(smsMock).toHaveReceivedCommandExactlyOnceWith(SendTextMessageCommand, {
      DestinationPhoneNumber: '+15125550143',
      OriginationIdentity: PHONE_ARN,
      MessageBody: 'Docs are ready',
      MessageType: 'TRANSACTIONAL',
      ConfigurationSetName: 'tcs-sms',
    });
  });

  it('reports the sending number when the identity is one, and sends without a configuration set when none is set', async () => {
    process.env.SMS_ORIGINATION_IDENTITY = '+15125550100';
    delete process.env.SMS_CONFIGURATION_SET;
    smsMock.on(SendTextMessageCommand).resolves({ MessageId: 'sms-0002' });
    expect((await awsSms().send({ to: '+15125550143', body: 'x' })).from).toBe('+15125550100');
    expect(smsMock.commandCalls(SendTextMessageCommand)[0].args[0].input.ConfigurationSetName).toBeUndefined();
  });

  it('fails (not SmsRejected) without an origination identity, before calling AWS', async () => {
    delete process.env.SMS_ORIGINATION_IDENTITY;
    const err = await awsSms().send({ to: '+15125550143', body: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(SmsRejected);
    expect((err as Error).message).toMatch(/SMS_ORIGINATION_IDENTITY/);
    expect(smsMock).toHaveReceivedCommandTimes(SendTextMessageCommand, 0);
  });

  it('an opted-out destination (Conflict) or an untextable number (Validation) is SmsRejected; throttling is rethrown', async () => {
    smsMock.on(SendTextMessageCommand).rejects(new SmsConflict({ message: 'DESTINATION_PHONE_NUMBER_OPTED_OUT', $metadata: {}, Reason: 'DESTINATION_PHONE_NUMBER_OPTED_OUT' }));
    const optedOut = await awsSms().send({ to: '+15125550143', body: 'x' }).catch((e: unknown) => e);
    expect(optedOut).toBeInstanceOf(SmsRejected);
    expect((optedOut as SmsRejected).reason).toContain('OPTED_OUT');

    smsMock.reset();
    smsMock.on(SendTextMessageCommand).rejects(new ValidationException({ message: 'INVALID_PARAMETER', $metadata: {} }));
    expect(await awsSms().send({ to: '+1', body: 'x' }).catch((e: unknown) => e)).toBeInstanceOf(SmsRejected);

    const throttled = new ThrottlingException({ message: 'slow down', $metadata: {} });
    smsMock.reset();
    smsMock.on(SendTextMessageCommand).rejects(throttled);
    expect(await awsSms().send({ to: '+15125550143', body: 'x' }).catch((e: unknown) => e)).toBe(throttled);
  });
});

describe('awsScheduler', () => {
  const schedule = {
    name: 'msg-11111111-2222-4333-8444-555555555555',
    at: '2027-01-15T09:00:00',
    timezone: 'America/Chicago',
    target: 'scheduled-send' as const,
    payload: { orgId: 'o-1', scheduledMessageId: '11111111-2222-4333-8444-555555555555' },
  };

  it('creates a one-time schedule in its zone, in the group, invoking the target as the role, retried then dead-lettered, deleted after it ran', async () => {
    schedulerMock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:aws:scheduler:us-east-1:111122223333:schedule/tcs-messages/x' });
    await awsScheduler().create(schedule);
    expect(schedulerMock).toHaveReceivedCommandExactlyOnceWith(CreateScheduleCommand, {
      Name: schedule.name,
      GroupName: 'tcs-messages',
      ScheduleExpression: 'at(2027-01-15T09:00:00)',
      ScheduleExpressionTimezone: 'America/Chicago',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: ENV.SCHEDULE_TARGET_SCHEDULED_SEND_ARN,
        RoleArn: ENV.SCHEDULER_ROLE_ARN,
        Input: JSON.stringify(schedule.payload),
        RetryPolicy: { MaximumRetryAttempts: SCHEDULE_RETRIES, MaximumEventAgeInSeconds: 3600 },
        DeadLetterConfig: { Arn: ENV.SCHEDULER_DLQ_ARN },
      },
    });
  });

  it('names the missing variable and calls nothing when the environment is incomplete', async () => {
    delete process.env.SCHEDULER_ROLE_ARN;
    await expect(awsScheduler().create(schedule)).rejects.toThrow(/SCHEDULER_ROLE_ARN/);
    expect(schedulerMock).toHaveReceivedCommandTimes(CreateScheduleCommand, 0);
  });

  it('is idempotent by name: a name already taken (ConflictException, a retried request) is `exists`, other errors rethrown', async () => {
    schedulerMock.on(CreateScheduleCommand).resolvesOnce({}).rejectsOnce(new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} }));
    expect(await awsScheduler().create(schedule)).toBe('created');
    expect(await awsScheduler().create(schedule)).toBe('exists');
    const refused = new ScheduleRefused({ message: 'bad time', Message: 'bad time', $metadata: {} });
    schedulerMock.on(CreateScheduleCommand).rejects(refused);
    await expect(awsScheduler().create(schedule)).rejects.toBe(refused);
  });

  it('deletes by name in the group: true when deleted, false when there was none, other errors rethrown', async () => {
    schedulerMock.on(DeleteScheduleCommand).resolvesOnce({}).rejectsOnce(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }));
    expect(await awsScheduler().delete(schedule.name)).toBe(true);
    expect(await awsScheduler().delete(schedule.name)).toBe(false);
    expect(schedulerMock).toHaveReceivedNthCommandWith(DeleteScheduleCommand, 1, { Name: schedule.name, GroupName: 'tcs-messages' });

    const broken = new InternalServerException({ message: 'oops', Message: 'oops', $metadata: {} });
    schedulerMock.on(DeleteScheduleCommand).rejects(broken);
    await expect(awsScheduler().delete(schedule.name)).rejects.toBe(broken);
  });
});
