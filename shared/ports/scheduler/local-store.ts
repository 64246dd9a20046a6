/**
 * The local schedule store: a JSON file of one-time schedules, shared by the local scheduler adapter (which adds
 * and removes) and the local runtime's poller (which fires due ones). Like EventBridge Scheduler, a schedule is
 * deleted after it ran, retried up to `MAX_RETRIES` times 30 s apart when its target fails, then moved to the
 * dead-letter list in the same file.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import type { OneTimeSchedule } from '#ports/scheduler';

/** Retries after the first failed run (EventBridge Scheduler's `RetryPolicy.MaximumRetryAttempts` in the stack). */
export const MAX_RETRIES = 3;
/** Seconds between runs of a failing schedule. */
export const RETRY_SECONDS = 30;

/** A stored schedule: the request plus when it is due (ISO UTC) and how its runs went. */
export interface StoredSchedule extends OneTimeSchedule {
  dueAt: string;
  runs: number;
  lastError: string | null;
}

interface StoreFile {
  schedules: StoredSchedule[];
  deadLetters: (StoredSchedule & { deadLetteredAt: string })[];
}

function read(file: string): StoreFile {
  if (!existsSync(file)) return { schedules: [], deadLetters: [] };
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<StoreFile>;
  return { schedules: parsed.schedules ?? [], deadLetters: parsed.deadLetters ?? [] };
}

function write(file: string, data: StoreFile): void {
  mkdirSync(path.dirname(file), { recursive: true });
  // Write then rename, so a reader never sees half a file.
  writeFileSync(`${file}.tmp`, JSON.stringify(data, null, 2));
  renameSync(`${file}.tmp`, file);
}

/**
 * The instant of a wall-clock time in a time zone (ISO UTC).
 * @throws Error for an unknown zone or an impossible time
 */
export function instantOf(at: string, timezone: string): string {
  const t = DateTime.fromISO(at, { zone: timezone });
  if (!t.isValid) throw new Error(`invalid schedule time ${at} in ${timezone}: ${t.invalidExplanation ?? t.invalidReason}`);
  return t.toUTC().toISO()!;
}

/** Adds a schedule. @throws Error when one of that name exists (as EventBridge Scheduler's ConflictException) */
export function addLocalSchedule(file: string, s: OneTimeSchedule): void {
  const data = read(file);
  if (data.schedules.some((x) => x.name === s.name)) throw new Error(`schedule ${s.name} already exists`);
  data.schedules.push({ ...s, dueAt: instantOf(s.at, s.timezone), runs: 0, lastError: null });
  write(file, data);
}

/** Removes a schedule. @returns false when there was none */
export function removeLocalSchedule(file: string, name: string): boolean {
  const data = read(file);
  const before = data.schedules.length;
  data.schedules = data.schedules.filter((x) => x.name !== name);
  if (data.schedules.length === before) return false;
  write(file, data);
  return true;
}

/** Schedules due at `now` (epoch ms), soonest first. */
export function dueLocalSchedules(file: string, now: number): StoredSchedule[] {
  return read(file)
    .schedules.filter((s) => Date.parse(s.dueAt) <= now)
    .sort((a, b) => a.dueAt.localeCompare(b.dueAt));
}

/** Every schedule still waiting, and the dead letters (for tests and `npm run outbox`). */
export function listLocalSchedules(file: string): StoreFile {
  return read(file);
}

/**
 * Records a run of `name`: a success deletes it; a failure retries it `RETRY_SECONDS` later, or after
 * `MAX_RETRIES` retries moves it to the dead letters.
 * @returns what became of it
 */
export function recordLocalRun(file: string, name: string, error: string | null, now: number): 'deleted' | 'retrying' | 'dead-lettered' | 'gone' {
  const data = read(file);
  const s = data.schedules.find((x) => x.name === name);
  if (!s) return 'gone';
  data.schedules = data.schedules.filter((x) => x !== s);
  let outcome: 'deleted' | 'retrying' | 'dead-lettered' = 'deleted';
  if (error !== null) {
    const runs = s.runs + 1;
    if (runs > MAX_RETRIES) {
      data.deadLetters.push({ ...s, runs, lastError: error, deadLetteredAt: new Date(now).toISOString() });
      outcome = 'dead-lettered';
    } else {
      data.schedules.push({ ...s, runs, lastError: error, dueAt: new Date(now + RETRY_SECONDS * 1000).toISOString() });
      outcome = 'retrying';
    }
  }
  write(file, data);
  return outcome;
}
