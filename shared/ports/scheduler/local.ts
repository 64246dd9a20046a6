/**
 * Local scheduler: schedules are entries of a JSON file (`LOCAL_SCHEDULE_STORE`) that the local runtime's poller
 * fires when their time comes by the request clock (lib/local/scheduler.ts). The wall-clock time is turned into an
 * instant here with the time zone's rules (luxon), as EventBridge Scheduler does.
 */
import type { Scheduler } from '#ports/scheduler';
import { addLocalSchedule, listLocalSchedules, removeLocalSchedule } from '#ports/scheduler/local-store';
import { config } from '#ports/config';

/** @throws Error on first use when `LOCAL_SCHEDULE_STORE` is unset */
export function localScheduler(): Scheduler {
  const store = () => config.localScheduleStore;
  return {
    async create(s) {
      if (listLocalSchedules(store()).schedules.some((x) => x.name === s.name)) return 'exists';
      addLocalSchedule(store(), s);
      return 'created';
    },
    async delete(name) {
      return removeLocalSchedule(store(), name);
    },
  };
}
