/**
 * Imported first by a CLI that runs a real handler in-process (`npm run sms -- reply`), so the Powertools Logger and
 * Metrics (shared/observability/powertools.ts, constructed when first imported) keep the CLI's stdout for its own
 * result: log level `WARN` by default (warnings and errors go to stderr; the handler's info lines are what the CLI
 * prints anyway) and metrics off (an EMF document on a terminal reaches no CloudWatch). Set `POWERTOOLS_LOG_LEVEL`
 * or `POWERTOOLS_METRICS_DISABLED` to override.
 */
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

export {};
