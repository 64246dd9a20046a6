/**
 * The outbox relay's schedule step (shared/use-cases/schedule-relay.ts) against mocked AWS clients
 * (aws-sdk-client-mock): EventBridge Scheduler (`CreateSchedule`, `DeleteSchedule`) and the document client. Covered:
 * a request creates the schedule it carries; a replay finds it made (ConflictException) and is done; a schedule
 * that cannot be created marks its record so the user sees it (each kind) and is not retried, unless that mark
 * itself fails; a cancel deletes, a schedule already gone is done, a failed delete is not retried; other events are
 * ignored.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { ConditionalCheckFailedException, InternalServerError } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, InternalServerException, ResourceNotFoundException, SchedulerClient, ValidationException } from '@aws-sdk/client-scheduler';
import { resetDbClient } from '#db/client';
import { resetScheduler } from '#ports/scheduler';
import type { ScheduleSubject } from '#events/catalog';
import type { EventEnvelope } from '#events/outbox';
import { relaySchedule, UNSCHEDULED_ERROR } from '#use-cases/schedule-relay';

const ddb = mockClient(DynamoDBDocumentClient);
const schedulerMock = mockClient(SchedulerClient);
const NOW = new Date('2030-03-01T12:00:00.000Z');
const SCHEDULE = { name: 'msg-m-1', at: '2030-03-08T09:00:00', timezone: 'America/Chicago', target: 'scheduled-send' as const, payload: { orgId: 'org-1', scheduledMessageId: 'm-1' } };
const MESSAGE: ScheduleSubject = { kind: 'scheduled_message', transactionId: 't-1', scheduledMessageId: 'm-1' };

const envelope = <T extends 'schedule.requested' | 'schedule.cancel_requested'>(eventType: T, data: EventEnvelope<T>['data']) =>
  ({ eventType, eventId: 'e-1', timestamp: NOW.toISOString(), organizationId: 'org-1', userId: 'u-1', data }) as EventEnvelope;
const requested = (subject: ScheduleSubject = MESSAGE) => envelope('schedule.requested', { schedule: SCHEDULE, subject });
const refused = () => new ValidationException({ message: 'at() is malformed', Message: 'at() is malformed', $metadata: {} });
const updates = () => ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input);

beforeEach(() => {
  vi.stubEnv('TABLE_NAME', 'unit-table');
  vi.stubEnv('SCHEDULER', '');
  vi.stubEnv('SCHEDULE_GROUP', 'tcs-messages');
  vi.stubEnv('SCHEDULER_ROLE_ARN', 'arn:aws:iam::111122223333:role/tcs-scheduler');
  vi.stubEnv('SCHEDULER_DLQ_ARN', 'arn:aws:sqs:us-east-1:111122223333:tcs-scheduler-dlq');
  vi.stubEnv('SCHEDULE_TARGET_SCHEDULED_SEND_ARN', 'arn:aws:lambda:us-east-1:111122223333:function:tcs-scheduled-send');
  resetDbClient();
  resetScheduler();
  ddb.reset();
  schedulerMock.reset();
  ddb.on(UpdateCommand).resolves({});
});
afterEach(() => vi.unstubAllEnvs());

describe('schedule.requested', () => {
  it('creates the schedule it carries, in the group, at its wall-clock time and zone; touches no record', async () => {
    schedulerMock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:aws:scheduler:us-east-1:111122223333:schedule/tcs-messages/msg-m-1' });
    expect(await relaySchedule(requested(), NOW)).toBe('created');
    expect(schedulerMock).toHaveReceivedCommandExactlyOnceWith(CreateScheduleCommand, {
      Name: 'msg-m-1',
      GroupName: 'tcs-messages',
      ScheduleExpression: 'at(2030-03-08T09:00:00)',
      ScheduleExpressionTimezone: 'America/Chicago',
    });
    expect(updates()).toEqual([]);
  });

  it('a replayed record finds the schedule made (ConflictException): done, nothing marked', async () => {
    schedulerMock.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} }));
    expect(await relaySchedule(requested(), NOW)).toBe('exists');
    expect(updates()).toEqual([]);
  });

  it('a scheduled message whose schedule cannot be created ends failed with the error the user reads, from pending only', async () => {
    schedulerMock.on(CreateScheduleCommand).rejects(refused());
    expect(await relaySchedule(requested(), NOW)).toBe('unscheduled');
    const [u] = updates();
    expect(updates()).toHaveLength(1);
    expect(u).toMatchObject({ Key: { SK: 'SCHED' }, ConditionExpression: '#s = :from', ExpressionAttributeValues: { ':from': 'pending', ':to': 'failed', ':err': UNSCHEDULED_ERROR } });
    expect(String(u!.Key!.PK)).toContain('m-1');
  });

  it('a reminder ends failed at its generation; an export ends failed; a deletion records scheduleError while still scheduled', async () => {
    schedulerMock.on(CreateScheduleCommand).rejects(new InternalServerException({ message: 'unavailable', Message: 'unavailable', $metadata: {} }));
    await relaySchedule(requested({ kind: 'reminder', transactionId: 't-1', reminderId: 'r-1', generation: 2 }), NOW);
    await relaySchedule(requested({ kind: 'workspace_export', exportId: 'x-1' }), NOW);
    await relaySchedule(requested({ kind: 'workspace_deletion', deletionId: 'd-1' }), NOW);
    const [reminder, exported, deletion] = updates();
    expect(reminder).toMatchObject({ Key: { SK: 'REMINDER#r-1' }, ExpressionAttributeValues: { ':from': 'pending', ':gen': 2 } });
    expect(Object.values(reminder!.ExpressionAttributeValues!)).toEqual(expect.arrayContaining(['failed', UNSCHEDULED_ERROR]));
    expect(exported).toMatchObject({ Key: { SK: 'EXPORT' }, ExpressionAttributeValues: { ':id': 'x-1', ':building': 'building' } });
    expect(Object.values(exported!.ExpressionAttributeValues!)).toEqual(expect.arrayContaining(['failed', UNSCHEDULED_ERROR]));
    expect(deletion).toMatchObject({ Key: { SK: 'ORG' }, UpdateExpression: 'SET deletion.scheduleError = :e', ExpressionAttributeValues: { ':id': 'd-1', ':scheduled': 'scheduled' } });
  });

  it('a record that moved on meanwhile (cancelled, sent) is left as is; a failed mark throws so the stream retries the record', async () => {
    schedulerMock.on(CreateScheduleCommand).rejects(refused());
    ddb.on(UpdateCommand).rejectsOnce(new ConditionalCheckFailedException({ message: 'not pending', $metadata: {} }));
    expect(await relaySchedule(requested(), NOW)).toBe('unscheduled');
    const down = new InternalServerError({ message: 'down', $metadata: {} });
    ddb.on(UpdateCommand).rejects(down);
    await expect(relaySchedule(requested(), NOW)).rejects.toBe(down);
  });
});

describe('schedule.cancel_requested', () => {
  const cancel = envelope('schedule.cancel_requested', { name: 'msg-m-1', subject: MESSAGE });

  it('deletes the schedule by name in the group; one already gone (ran, or never made) is done', async () => {
    schedulerMock.on(DeleteScheduleCommand).resolvesOnce({}).rejectsOnce(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }));
    expect(await relaySchedule(cancel, NOW)).toBe('deleted');
    expect(await relaySchedule(cancel, NOW)).toBe('gone');
    expect(schedulerMock).toHaveReceivedNthCommandWith(DeleteScheduleCommand, 1, { Name: 'msg-m-1', GroupName: 'tcs-messages' });
  });

  it('a delete that fails is not retried (the target re-checks the record when it fires) and marks nothing', async () => {
    schedulerMock.on(DeleteScheduleCommand).rejects(new InternalServerException({ message: 'unavailable', Message: 'unavailable', $metadata: {} }));
    expect(await relaySchedule(cancel, NOW)).toBe('not-deleted');
    expect(updates()).toEqual([]);
  });
});

it('ignores every other event, and a record that is no outbox event', async () => {
  const other = { eventType: 'task.created', eventId: 'e-2', timestamp: NOW.toISOString(), organizationId: 'org-1', userId: null, data: { taskId: 't', transactionId: 'x', title: 'T', dueDate: null, assigneeUserId: null } } as EventEnvelope;
  expect(await relaySchedule(other, NOW)).toBe('ignored');
  expect(await relaySchedule(undefined, NOW)).toBe('ignored');
  expect(schedulerMock.calls()).toHaveLength(0);
  expect(ddb.calls()).toHaveLength(0);
});
