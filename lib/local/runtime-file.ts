/**
 * How the operator CLIs (`npm run admin`, `npm run sms`) reach a running `npm start`: it writes
 * `<dataDir>/local-runtime.json` (DynamoDB Local endpoint, table, pid, API base URL) and removes it on exit; a CLI
 * reads it and, when that process is alive, points the repositories at its table. Without one, the CLI starts a
 * DynamoDB Local on `<dataDir>/dynamodb` for the command (the same data `npm start` would use).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What `npm start` records for the CLIs. */
export interface RuntimeInfo {
  endpoint: string;
  tableName: string;
  pid: number;
  baseUrl: string;
  /** The local SMTP server (`smtp://127.0.0.1:<SMTP_PORT>`), for `npm run mail`; absent in files of older runs. */
  smtpUrl?: string;
}

/** The data directory: `DATA_DIR` or `.data` (relative to the working directory). */
export const localDataDir = (): string => path.resolve(process.env.DATA_DIR ?? '.data');

const runtimeFileOf = (dataDir: string) => path.join(dataDir, 'local-runtime.json');

/** Records a running runtime (`npm start`, and tests that drive the CLIs). */
export function writeRuntimeFile(dataDir: string, info: RuntimeInfo): void {
  writeFileSync(runtimeFileOf(dataDir), JSON.stringify(info) + '\n');
}

/** Forgets it (on exit). */
export function removeRuntimeFile(dataDir: string): void {
  rmSync(runtimeFileOf(dataDir), { force: true });
}

/** The running runtime of `dataDir`, or undefined when none is recorded or its process is gone. */
export function runningRuntime(dataDir: string): RuntimeInfo | undefined {
  const file = runtimeFileOf(dataDir);
  if (!existsSync(file)) return undefined;
  const info = JSON.parse(readFileSync(file, 'utf8')) as RuntimeInfo;
  return isAlive(info.pid) ? info : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Points the repositories (`TABLE_NAME`, `DYNAMODB_ENDPOINT`) at the local table: the running runtime's, or a
 * DynamoDB Local started on `<dataDir>/dynamodb` for this command (table `tcs-local` unless `TABLE_NAME` is set).
 * @returns a cleanup that stops what was started
 */
export async function connectLocalTable(dataDir = localDataDir()): Promise<() => Promise<void>> {
  const rt = runningRuntime(dataDir);
  if (rt) {
    process.env.DYNAMODB_ENDPOINT = rt.endpoint;
    process.env.TABLE_NAME = rt.tableName;
    return async () => undefined;
  }
  const { startDynamoDbLocal } = await import('#lib/local/dynamodb-local');
  const { ensureTable } = await import('#lib/local/ensure-table');
  const ddb = await startDynamoDbLocal({ dataDir: path.join(dataDir, 'dynamodb') });
  process.env.DYNAMODB_ENDPOINT = ddb.endpoint;
  process.env.TABLE_NAME ??= 'tcs-local';
  await ensureTable(ddb.endpoint, process.env.TABLE_NAME);
  return () => ddb.stop();
}
