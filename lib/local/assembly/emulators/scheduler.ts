/**
 * EventBridge Scheduler stand-in: one-time `at(...)` schedules (REST `POST/DELETE/GET /schedules/{Name}`), kept in
 * memory and fired by a poller when due in their time zone: the target (a function ARN) is invoked with the
 * schedule's `Input` through `invokeTarget`, as the scheduler does with the target's role; a failure is retried
 * `RetryPolicy.MaximumRetryAttempts` times, then the event goes to `DeadLetterConfig.Arn` through `deadLetter`.
 * `ActionAfterCompletion: DELETE` removes it after it ran. Errors use the REST-JSON `x-amzn-errortype` header.
 */
import { DateTime } from 'luxon';
import type { Backend, GatewayResponse } from '../aws-gateway.ts';

interface Schedule {
  name: string;
  group: string;
  dueAt: number;
  target: { Arn: string; RoleArn: string; Input?: string; RetryPolicy?: { MaximumRetryAttempts?: number }; DeadLetterConfig?: { Arn?: string } };
  deleteAfter: boolean;
  attempts: number;
}

export interface SchedulerEmulator {
  backend: Backend;
  /** Names (`group/name`) of the schedules not yet run. */
  pending(): string[];
  /**
   * Fires every schedule due by `at` (default now) and resolves when they have run: a test reaches a schedule
   * set minutes ahead (an export's) without waiting for it.
   */
  tick(at?: number): Promise<void>;
  stop(): void;
}

const reply = (status: number, body: unknown, type?: string): GatewayResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...(type ? { 'x-amzn-errortype': type } : {}) },
  body: JSON.stringify(type ? { Message: body } : body),
});

/**
 * @param invokeTarget invokes a target ARN with the schedule's input as `roleArn`; rejects when the target fails
 * @param deadLetter sends a failed schedule's event to its dead-letter queue ARN
 * @param intervalMs how often due schedules are looked for (default 250)
 */
export function schedulerEmulator(opts: {
  account: string;
  region: string;
  invokeTarget(arn: string, input: unknown, roleArn: string): Promise<unknown>;
  deadLetter(queueArn: string, body: string): Promise<void>;
  intervalMs?: number;
}): SchedulerEmulator {
  const schedules = new Map<string, Schedule>();
  const running = new Set<string>();
  const arnOf = (s: Schedule) => `arn:aws:scheduler:${opts.region}:${opts.account}:schedule/${s.group}/${s.name}`;

  const fire = async (key: string, s: Schedule) => {
    running.add(key);
    try {
      await opts.invokeTarget(s.target.Arn, s.target.Input ? JSON.parse(s.target.Input) : {}, s.target.RoleArn);
      if (s.deleteAfter) schedules.delete(key);
    } catch (err) {
      s.attempts += 1;
      if (s.attempts > (s.target.RetryPolicy?.MaximumRetryAttempts ?? 185)) {
        schedules.delete(key);
        if (s.target.DeadLetterConfig?.Arn) await opts.deadLetter(s.target.DeadLetterConfig.Arn, JSON.stringify({ scheduleArn: arnOf(s), error: String(err), input: s.target.Input }));
      } else s.dueAt = Date.now() + 1000;
    } finally {
      running.delete(key);
    }
  };
  const tick = async (at = Date.now()) => {
    const due = [...schedules].filter(([key, s]) => s.dueAt <= at && !running.has(key));
    await Promise.all(due.map(([key, s]) => fire(key, s)));
  };
  const timer = setInterval(() => void tick(), opts.intervalMs ?? 250);
  timer.unref();

  const backend: Backend = async (req) => {
    const name = decodeURIComponent(req.url.pathname.split('/')[2] ?? '');
    if (!req.url.pathname.startsWith('/schedules/') || !name) return reply(400, `scheduler ${req.method} ${req.url.pathname} is not emulated`, 'ValidationException');
    if (req.method === 'POST') {
      const body = JSON.parse(req.body.toString('utf8')) as { GroupName?: string; ScheduleExpression: string; ScheduleExpressionTimezone?: string; Target: Schedule['target']; ActionAfterCompletion?: string };
      const group = body.GroupName ?? 'default';
      const key = `${group}/${name}`;
      if (schedules.has(key)) return reply(409, `Schedule ${name} already exists.`, 'ConflictException');
      const at = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/.exec(body.ScheduleExpression)?.[1];
      if (!at) return reply(400, `Invalid Schedule Expression ${body.ScheduleExpression}.`, 'ValidationException');
      const due = DateTime.fromISO(at, { zone: body.ScheduleExpressionTimezone ?? 'UTC' });
      if (!due.isValid) return reply(400, `Invalid time zone ${body.ScheduleExpressionTimezone}.`, 'ValidationException');
      const schedule: Schedule = { name, group, dueAt: due.toMillis(), target: body.Target, deleteAfter: body.ActionAfterCompletion === 'DELETE', attempts: 0 };
      schedules.set(key, schedule);
      return reply(200, { ScheduleArn: arnOf(schedule) });
    }
    const key = `${req.url.searchParams.get('groupName') ?? 'default'}/${name}`;
    const schedule = schedules.get(key);
    if (!schedule) return reply(404, `Schedule ${name} does not exist.`, 'ResourceNotFoundException');
    if (req.method === 'DELETE') return (schedules.delete(key), reply(200, {}));
    return reply(200, { Name: name, GroupName: schedule.group, Arn: arnOf(schedule), Target: schedule.target });
  };
  return { backend, pending: () => [...schedules.keys()], tick, stop: () => clearInterval(timer) };
}
