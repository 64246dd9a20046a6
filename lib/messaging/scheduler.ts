/**
 * `MessageScheduler`: the service's one-time schedules (shared/ports/scheduler/aws.ts): scheduled messages,
 * reminders, and the workspace purge and export of issue 13 (lib/workspace-lifecycle.ts).
 *
 *   API group ──change + schedule.requested (one transaction)──▶ table stream ──▶ outbox relay (webhook-fanout,
 *   shared/use-cases/schedule-relay.ts)
 *   outbox relay ──CreateSchedule at(…) in the group, PassRole──▶ EventBridge Scheduler ──(at the time, as the role)──▶
 *   target (async invoke) ── failed delivery after the schedule's retries ──▶ scheduler DLQ (alarmed)
 *
 * - A schedule group holding only these schedules, so the relay's grant is scoped to `schedule/<group>/*`. No API
 *   group holds `scheduler:*` or `iam:PassRole` (issue 24).
 * - The role the scheduler assumes: trusted by `scheduler.amazonaws.com` from this account and this group only
 *   (EventBridge Scheduler User Guide, "Set up the execution role"), allowed `lambda:InvokeFunction` on the
 *   targets alone (scheduled-send, then each `addTarget`: one statement listing exactly their ARNs) and
 *   `sqs:SendMessage` on the dead-letter queue (the scheduler writes it as the role).
 * - The retry policy (`SCHEDULE_RETRIES` = 3 attempts more, events at most 1 h old) and `ActionAfterCompletion:
 *   DELETE` are set per schedule by the adapter. The scheduler invokes Lambda asynchronously: a function error is
 *   retried by Lambda's own async retries and then goes to the messaging workers' failure queue
 *   (lib/messaging-pipeline.ts); this DLQ receives what the scheduler could not deliver at all.
 */
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { queueEncryption, type DataKey } from '../data-key.ts';
import { scheduleTargetVariable as targetVariable } from '#ports/config';
import type { ScheduleTarget } from '#ports/scheduler';
import { nagResourceOf } from '../nag-resource.ts';
import type { ServiceFunction } from '../service-function.ts';

/** Inputs of `MessageScheduler`. */
export interface MessageSchedulerProps {
  /** functions/scheduled-send, the schedules' target. */
  readonly target: ServiceFunction;
  /** Encrypts the dead-letter queue (lib/data-key.ts); the scheduler's role may then write to it. */
  readonly dataKey?: DataKey;
}

/** Schedule group, execution role, dead-letter queue, and the grant for API groups. */
export class MessageScheduler extends Construct {
  readonly group: scheduler.ScheduleGroup;
  /** Assumed by EventBridge Scheduler for this group's schedules. */
  readonly role: iam.Role;
  /** Invocations the scheduler gave up on (14 days' retention, SQS-managed encryption, TLS only). */
  readonly deadLetterQueue: sqs.Queue;
  /** What schedules may invoke, by the port's target name (`SCHEDULE_TARGET_<NAME>_ARN`). */
  private readonly targets = new Map<ScheduleTarget, ServiceFunction>();
  /** The role's one `lambda:InvokeFunction` statement; `addTarget` adds resources to it. */
  private readonly invoke: iam.PolicyStatement;
  /** Functions given `grantManage` so far (a later `addTarget` adds its ARN to their environment). */
  private readonly managers: ServiceFunction[] = [];

  constructor(scope: Construct, id: string, props: MessageSchedulerProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // Deleting the group deletes its schedules: on stack delete their target is gone too. (RETAIN would also make a
    // redeploy of the same stack collide with the kept group's name.)
    this.group = new scheduler.ScheduleGroup(this, 'Group', { removalPolicy: RemovalPolicy.DESTROY });
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', { ...queueEncryption(props.dataKey), enforceSSL: true, retentionPeriod: Duration.days(14) });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter queue (EventBridge Scheduler\'s DeadLetterConfig for the scheduled-message ' +
        'schedules); a DLQ of a DLQ would only move the same messages again. It is alarmed on any visible message and keeps them 14 days.',
    });

    this.role = new iam.Role(this, 'Role', {
      description: 'Assumed by EventBridge Scheduler to run the service\'s one-time schedules (scheduled messages, workspace purge and export)',
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account, 'aws:SourceArn': this.group.scheduleGroupArn } },
      }),
    });
    this.invoke = new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'] });
    this.role.addToPolicy(this.invoke);
    this.addTarget('scheduled-send', props.target);
    this.role.addToPolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.deadLetterQueue.queueArn] }));
    // Scheduler writes a failed invocation to the DLQ with this role, so the role encrypts with the queue's key.
    props.dataKey?.grantEncryptDecrypt(this.role);
  }

  /** `arn:…:scheduler:<region>:<account>:schedule/<group>/*`: every schedule of the group. */
  get schedulesArn(): string {
    return Stack.of(this).formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${this.group.scheduleGroupName}/*` });
  }

  /**
   * Makes `fn` a target schedules may invoke as `target`: its ARN joins the role's `lambda:InvokeFunction`
   * statement and the `SCHEDULE_TARGET_<TARGET>_ARN` environment of every function given `grantManage`.
   * @throws Error when `target` already has a function
   */
  addTarget(target: ScheduleTarget, fn: ServiceFunction): void {
    if (this.targets.has(target)) throw new Error(`schedule target ${target} is already registered`);
    this.targets.set(target, fn);
    this.invoke.addResources(fn.live.functionArn);
    for (const manager of this.managers) manager.fn.addEnvironment(targetVariable(target), fn.live.functionArn);
  }

  /**
   * Lets a worker delete this group's schedules (the workspace purge deletes the organization's pending ones):
   * `scheduler:DeleteSchedule` on `schedule/<group>/*` and `SCHEDULE_GROUP`. No create, no PassRole.
   */
  grantDelete(fn: ServiceFunction): void {
    fn.fn.addEnvironment('SCHEDULE_GROUP', this.group.scheduleGroupName);
    fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['scheduler:DeleteSchedule'], resources: [this.schedulesArn] }));
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagResourceOf(this, this.schedulesArn)}]`,
      reason:
        'DeleteSchedule only: schedules are named at run time (msg-<messageId>, rem-<reminderId>-<generation>, purge-<deletionId>, export-<exportId>); the wildcard ' +
        'covers only the schedules of this stack\'s group.',
    });
  }

  /**
   * Lets the outbox relay (functions/webhook-fanout, lib/stack.ts) create and delete this group's schedules as
   * shared/ports/scheduler/aws.ts does: `scheduler:CreateSchedule` and `scheduler:DeleteSchedule` on
   * `schedule/<group>/*`, `iam:PassRole` on the role only towards `scheduler.amazonaws.com`, and `SCHEDULE_GROUP`, `SCHEDULER_ROLE_ARN`, `SCHEDULER_DLQ_ARN`,
   * `SCHEDULE_TARGET_<TARGET>_ARN` for each target (`SCHEDULE_TARGET_SCHEDULED_SEND_ARN`, …).
   */
  grantManage(fn: ServiceFunction): void {
    this.managers.push(fn);
    fn.fn.addEnvironment('SCHEDULE_GROUP', this.group.scheduleGroupName);
    fn.fn.addEnvironment('SCHEDULER_ROLE_ARN', this.role.roleArn);
    fn.fn.addEnvironment('SCHEDULER_DLQ_ARN', this.deadLetterQueue.queueArn);
    for (const [target, targetFn] of this.targets) fn.fn.addEnvironment(targetVariable(target), targetFn.live.functionArn);
    fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'], resources: [this.schedulesArn] }));
    fn.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagResourceOf(this, this.schedulesArn)}]`,
      reason:
        'One schedule per scheduled message, reminder generation, purge or export, named at run time (msg-<messageId>, rem-<reminderId>-<generation>, purge-<deletionId>, export-<exportId>): the wildcard covers only the schedules ' +
        'of this stack\'s scheduled-message group, and the actions are exactly CreateSchedule and DeleteSchedule.',
    });
  }
}
