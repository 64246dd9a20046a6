/**
 * `FUZZ_PROFILE=1`: where the edge fuzz suite's DynamoDB Local CPU goes. Each phase's engine CPU is read from
 * `/proc/<java pid>/stat` (utime + stime, in clock ticks of 10 ms) before and after it; the suite runs its phases
 * one after another, so the difference is that phase's. Off by default: reading /proc costs a little on every phase.
 */
import { readdirSync, readFileSync } from 'node:fs';

const ENABLED = process.env.FUZZ_PROFILE === '1';
/** Linux's USER_HZ (`getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;

const pidByPort = new Map<string, string | undefined>();

/** The pid of the DynamoDB Local listening on the endpoint's port (found by its command line), if any. */
function enginePid(endpoint: string | undefined): string | undefined {
  if (!endpoint) return undefined;
  const port = new URL(endpoint).port;
  if (!pidByPort.has(port)) {
    const pid = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .find((d) => {
        try {
          const args = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
          return args.includes('DynamoDBLocal.jar') && args[args.indexOf('-port') + 1] === port;
        } catch {
          return false;
        }
      });
    pidByPort.set(port, pid);
  }
  return pidByPort.get(port);
}

/** CPU seconds the process has used (user + system). */
function cpuSeconds(pid: string | undefined): number {
  if (!pid) return 0;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Engine CPU seconds and call counts per phase, for one file. */
export class FuzzProfile {
  private readonly cpu = new Map<string, number>();
  private readonly calls = new Map<string, number>();

  /** Runs `fn`, adding the engine's CPU meanwhile to `phase` (only with `FUZZ_PROFILE=1`). */
  async time<T>(phase: string, fn: () => Promise<T>): Promise<T> {
    if (!ENABLED) return fn();
    const pid = enginePid(process.env.DYNAMODB_ENDPOINT);
    const before = cpuSeconds(pid);
    try {
      return await fn();
    } finally {
      // The phase may have moved to another engine (a new table): then count from that engine's start, not at all.
      const after = enginePid(process.env.DYNAMODB_ENDPOINT) === pid ? cpuSeconds(pid) : before;
      this.cpu.set(phase, (this.cpu.get(phase) ?? 0) + after - before);
      this.calls.set(phase, (this.calls.get(phase) ?? 0) + 1);
    }
  }

  /** One line per phase, `phase: 12.3 CPU-s in 45 calls`, most first; empty when profiling is off. */
  report(): string {
    if (!ENABLED) return '';
    const total = [...this.cpu.values()].reduce((a, b) => a + b, 0);
    const lines = [...this.cpu].sort(([, a], [, b]) => b - a).map(([p, s]) => `  ${p}: ${s.toFixed(2)} engine CPU-s in ${this.calls.get(p)} calls`);
    return `engine CPU by phase (${total.toFixed(2)} CPU-s):\n${lines.join('\n')}`;
  }
}
