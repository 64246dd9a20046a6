/**
 * The local stand-in for EventBridge Scheduler: polls the local schedule store (shared/ports/scheduler/local-store.ts)
 * and invokes each due schedule's target handler with its payload, by the request clock (`clockNow`, which tests
 * move), deleting it after a successful run and retrying, then dead-lettering, a failing one.
 */
import type { ScheduleTarget } from '#ports/scheduler';
import { dueLocalSchedules, recordLocalRun } from '#ports/scheduler/local-store';
import { clockNow } from '#ports/clock';
import type { Context } from 'aws-lambda';
import { invokeLocally } from '#lib/local/invoke';

export interface LocalSchedulerPoller {
  /** Fires every due schedule now (tests call it after moving the clock). @returns how many ran */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

type TargetHandler = (payload: Record<string, unknown>, context: Context) => Promise<unknown>;

/** Each target's handler, invoked as its own local invocation (as EventBridge Scheduler invokes the function). */
const targets: Record<ScheduleTarget, () => Promise<(payload: Record<string, unknown>) => Promise<unknown>>> = {
  'scheduled-send': () =>
    import('#functions/scheduled-send/handler').then((m) => (payload: Record<string, unknown>) => invokeLocally(m.handler as unknown as TargetHandler, payload, 'scheduled-send')),
  'workspace-purge': () =>
    import('#functions/workspace-purge/handler').then((m) => (payload: Record<string, unknown>) => invokeLocally(m.handler as unknown as TargetHandler, payload, 'workspace-purge')),
  'workspace-export': () =>
    import('#functions/workspace-export/handler').then((m) => (payload: Record<string, unknown>) => invokeLocally(m.handler as unknown as TargetHandler, payload, 'workspace-export')),
};

/**
 * @param opts.file the schedule store (`LOCAL_SCHEDULE_STORE`)
 * @param opts.intervalMs how often to look (default 1000)
 * @param opts.onError failures of a target (default: stderr)
 */
export function startLocalScheduler(opts: { file: string; intervalMs?: number; onError?: (err: unknown, name: string) => void }): LocalSchedulerPoller {
  const onError = opts.onError ?? ((err, name) => process.stderr.write(`[local scheduler] ${name} failed: ${err instanceof Error ? err.message : String(err)}\n`));
  let chain: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const runOnce = async (): Promise<number> => {
    let ran = 0;
    const now = clockNow().getTime();
    for (const s of dueLocalSchedules(opts.file, now)) {
      let error: string | null = null;
      try {
        await (await targets[s.target]())(s.payload);
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
        onError(err, s.name);
      }
      recordLocalRun(opts.file, s.name, error, now);
      ran++;
    }
    return ran;
  };
  // Runs one after another, each reading the clock when it starts (a tick after `setClock` sees the new time).
  const tick = (): Promise<number> => {
    const next = chain.then(runOnce);
    chain = next.catch(() => undefined);
    return next;
  };
  const timer = setInterval(() => {
    if (!stopped) void tick();
  }, opts.intervalMs ?? 1000);
  timer.unref();
  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await chain;
    },
  };
}
