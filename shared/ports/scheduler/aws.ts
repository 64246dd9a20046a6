/**
 * One-time schedules in AWS: EventBridge Scheduler, in the group `SCHEDULE_GROUP`. Each schedule runs once
 * (`at(...)` in its time zone), invokes the target's Lambda (ARN from `SCHEDULE_TARGET_<TARGET>_ARN`) with the
 * payload as input through the role `SCHEDULER_ROLE_ARN`, is retried `MaximumRetryAttempts` times, then goes to
 * the dead-letter queue `SCHEDULER_DLQ_ARN`, and deletes itself after it ran (`ActionAfterCompletion: DELETE`).
 * Creating a schedule that exists is done (`ConflictException` → `exists`), deleting one that is gone too.
 */
import { traced } from '#observability/powertools';
import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, SchedulerClient } from '@aws-sdk/client-scheduler';
import type { Scheduler, ScheduleTarget } from '#ports/scheduler';
import { config } from '#ports/config';

/** Retries of a failed invocation before the dead-letter queue. */
export const SCHEDULE_RETRIES = 3;

/** Attempts per call (the SDK's standard retry mode backs off between them): a throttled or briefly unavailable scheduler is waited out before the relay marks a request failed. */
export const SDK_ATTEMPTS = 5;

let client: SchedulerClient | undefined;

/** `scheduled-send` → `SCHEDULE_TARGET_SCHEDULED_SEND_ARN`. */
const targetArn = (target: ScheduleTarget) => config.scheduleTargetArn(target);

export function awsScheduler(): Scheduler {
  return {
    async create(s) {
      client ??= traced(new SchedulerClient({ maxAttempts: SDK_ATTEMPTS }));
      try {
        await client.send(
          new CreateScheduleCommand({
            Name: s.name,
            GroupName: config.scheduleGroup,
            ScheduleExpression: `at(${s.at})`,
            ScheduleExpressionTimezone: s.timezone,
            FlexibleTimeWindow: { Mode: 'OFF' },
            ActionAfterCompletion: 'DELETE',
            Target: {
              Arn: targetArn(s.target),
              RoleArn: config.schedulerRoleArn,
              Input: JSON.stringify(s.payload),
              RetryPolicy: { MaximumRetryAttempts: SCHEDULE_RETRIES, MaximumEventAgeInSeconds: 3600 },
              DeadLetterConfig: { Arn: config.schedulerDlqArn },
            },
          }),
        );
        return 'created';
      } catch (err) {
        // Names are unique per message, reminder generation, deletion and export: one there is this request's.
        if (err instanceof ConflictException) return 'exists';
        throw err;
      }
    },
    async delete(name) {
      client ??= traced(new SchedulerClient({ maxAttempts: SDK_ATTEMPTS }));
      try {
        await client.send(new DeleteScheduleCommand({ Name: name, GroupName: config.scheduleGroup }));
        return true;
      } catch (err) {
        if (err instanceof ResourceNotFoundException) return false;
        throw err;
      }
    },
  };
}
