/**
 * The local stand-ins for the reports API's Lambda invocations of the report workers (shared/ports/report-builder.ts):
 * in-process invokers registered with the port that run the real handlers, functions/report-pdf/handler.ts and
 * functions/report-zip/handler.ts, each in its own invoke context (without the deployed timeout, as every local
 * worker: lib/local/invoke.ts), and answer what they return, or reject with what they throw (where the API would
 * see a function error). lib/local/runtime.ts starts them.
 */
import { invokeLocally } from '#lib/local/invoke';
import { registerLocalReportWorkers, type BuiltReport, type ReportWorker } from '#ports/report-builder';

type Handler = (input: unknown) => Promise<BuiltReport>;
const handlers = new Map<ReportWorker, Promise<Handler>>();

/** A worker's handler, loaded on first use (pdf-lib and the ZIP writer stay unloaded until a report is asked for). */
function handlerOf(worker: ReportWorker): Promise<Handler> {
  let loading = handlers.get(worker);
  if (!loading) {
    const module = worker === 'report-pdf' ? import('#functions/report-pdf/handler') : import('#functions/report-zip/handler');
    loading = module.then((m) => m.handler as Handler).catch((err: unknown) => (handlers.delete(worker), Promise.reject(err)));
    handlers.set(worker, loading);
  }
  return loading;
}

/** Registers the in-process workers. @returns `stop`, which unregisters them */
export function startLocalReportBuilder(): { stop(): void } {
  const run = async (worker: ReportWorker, request: unknown) => invokeLocally(await handlerOf(worker), request, worker);
  registerLocalReportWorkers({ 'report-pdf': (r) => run('report-pdf', r), 'report-zip': (r) => run('report-zip', r) });
  return { stop: () => registerLocalReportWorkers(undefined) };
}
