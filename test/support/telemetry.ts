/**
 * What Powertools writes while a test runs: JSON log lines and EMF metric documents, parsed. vitest.config.ts
 * quiets Powertools (log level SILENT, metrics disabled). Both are read when the process's Logger and Metrics
 * are created (the Logger also returns to its initial level at each invocation), so a file that asserts them sets
 * the environment before its imports:
 * `vi.hoisted(() => Object.assign(process.env, { POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'false' }))`,
 * and captures while its tests run: `captureTelemetry()` records, without printing, every line written to stdout
 * and stderr until `restore()`.
 */
import { vi } from 'vitest';

/** One Powertools log line (the keys every line has, plus whatever was appended or passed). */
export type LogLine = { level: string; message: string; timestamp: string; service: string } & Record<string, unknown>;

/** One CloudWatch Embedded Metric Format document: metric values and dimension values are top-level keys. */
export type EmfDocument = {
  _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
} & Record<string, unknown>;

export interface Telemetry {
  /** Log lines, in order. */
  logs(): LogLine[];
  /** EMF documents, in order. */
  metrics(): EmfDocument[];
  /** Stops capturing. */
  restore(): void;
}

/** Starts capturing. */
export function captureTelemetry(): Telemetry {
  const lines: Record<string, unknown>[] = [];
  const capture = (chunk: string | Uint8Array): boolean => {
    for (const line of String(chunk).split('\n')) {
      if (!line.trim()) continue;
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        lines.push({ unparsed: line });
      }
    }
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture as typeof process.stdout.write);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture as typeof process.stderr.write);
  return {
    logs: () => lines.filter((l): l is LogLine => typeof l.level === 'string' && typeof l.message === 'string'),
    metrics: () => lines.filter((l): l is EmfDocument => typeof l._aws === 'object'),
    restore() {
      out.mockRestore();
      err.mockRestore();
    },
  };
}

/** The metric names of an EMF document. */
export const metricNames = (doc: EmfDocument): string[] => doc._aws.CloudWatchMetrics.flatMap((m) => m.Metrics.map((x) => x.Name));
