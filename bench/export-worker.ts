/**
 * Child process of `npm run bench:export` (bench/export.ts), bundled with esbuild first so no TypeScript loader
 * sits in the measured process: runs the workspace-export worker (functions/workspace-export/handler.ts) once on
 * the input given as JSON in argv[2], samples the resident set every 50 ms, and prints one JSON line
 * `{outcome, ms, cpuMs, peakRssMb, maxRssMb, heapUsedMb}` (`cpuMs`: user + system CPU time of the run). The environment (table, S3, SMTP) is the parent's.
 */
import { handler } from '../functions/workspace-export/handler.ts';

const input = JSON.parse(process.argv[2] ?? '{}') as { orgId: string; exportId: string };
let peak = 0;
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
const timer = setInterval(sample, 50);
const started = performance.now();
const cpu = process.cpuUsage();
const result = await handler(input);
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
clearInterval(timer);
sample();
const mb = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;
// resourceUsage().maxRSS is the kernel's high-water mark (KiB): it catches peaks between samples.
process.stdout.write(`${JSON.stringify({ ...result, ms: Math.round(ms), cpuMs: Math.round((used.user + used.system) / 1000), peakRssMb: mb(peak), maxRssMb: mb(process.resourceUsage().maxRSS * 1024), heapUsedMb: mb(process.memoryUsage().heapUsed) })}\n`);
process.exit(0);
