/**
 * Runs one deployed function of a cloud assembly the way Lambda does: its bundled asset in sandboxes (child
 * processes of bare Node.js, lib/local/assembly/lambda-bootstrap.mjs), each sandbox serving one invocation at a
 * time, with only the environment Lambda would give it: the template's variables, Lambda's reserved ones
 * (region, function name, memory, credentials) and `AWS_ENDPOINT_URL`, which sends every AWS SDK call to the
 * assembly runtime's gateway (lib/local/assembly/aws-gateway.ts). The credentials' session token names the
 * function, so the gateway knows which role each call is made with. Sandboxes start on first use and scale out
 * to `maxSandboxes` under concurrent invocations; the rest wait, as throttled invocations would be retried.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';

/** What the assembly says about one function. */
export interface DeployedFunction {
  logicalId: string;
  /** Physical name (lib/local/assembly/naming.ts). */
  name: string;
  arn: string;
  /** Directory of its bundled asset (holds `index.mjs`). */
  assetDir: string;
  /** `Handler` property, e.g. `index.handler`. */
  handler: string;
  /** The template's `Environment.Variables`, resolved. */
  environment: Record<string, string>;
  /** `Timeout`, seconds (default 3, as Lambda's). */
  timeoutSeconds: number;
  memoryMb: number;
}

/** A failed invocation: the handler threw (Lambda's `FunctionError: Unhandled`). */
export class FunctionInvocationError extends Error {
  constructor(
    readonly functionName: string,
    readonly errorType: string,
    message: string,
  ) {
    super(`${functionName}: ${errorType}: ${message}`);
    this.name = 'FunctionInvocationError';
  }
}

const BOOTSTRAP = fileURLToPath(new URL('./lambda-bootstrap.mjs', import.meta.url));

interface Sandbox {
  child: ChildProcess;
  ready: Promise<void>;
  busy: boolean;
  /** Id of the invocation it runs. */
  current?: string;
}

/** Lines of output kept per function for diagnosis (`recentLogs`). */
const LOG_LINES = 200;

export class FunctionPool {
  private readonly sandboxes: Sandbox[] = [];
  private readonly waiting: Array<() => void> = [];
  private readonly pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private readonly logLines: string[] = [];
  private stopped = false;

  /**
   * @param fn the function
   * @param endpoint the gateway URL every AWS SDK call goes to (`AWS_ENDPOINT_URL`)
   * @param opts.maxSandboxes concurrent sandboxes (default 4)
   * @param opts.echoLogs copy the function's output to this process's stderr (default: env `TCS_ASSEMBLY_LOGS=1`)
   */
  constructor(
    readonly fn: DeployedFunction,
    private readonly endpoint: string,
    private readonly opts: { maxSandboxes?: number; echoLogs?: boolean; region: string } ,
  ) {}

  /** The last lines the function wrote (JSON log lines, EMF), oldest first. */
  recentLogs(): string[] {
    return [...this.logLines];
  }

  /**
   * Invokes the function with `event` and waits for its result (the `RequestResponse` type).
   * @param timeoutMs default the function's timeout
   * @throws FunctionInvocationError when the handler throws or the sandbox dies; Error on a timeout
   */
  async invoke(event: unknown, timeoutMs = this.fn.timeoutSeconds * 1000): Promise<unknown> {
    if (this.stopped) throw new Error(`${this.fn.name}: the runtime is stopped`);
    const sandbox = await this.acquire();
    const id = randomUUID();
    try {
      await sandbox.ready;
      return await new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          this.pending.delete(id);
          sandbox.child.kill('SIGKILL'); // Lambda ends a timed-out sandbox
          reject(new FunctionInvocationError(this.fn.name, 'Sandbox.Timedout', `Task timed out after ${timeoutMs / 1000} seconds`));
        }, timeoutMs);
        this.pending.set(id, {
          resolve: (v) => (clearTimeout(timer), resolve(v)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
        sandbox.current = id;
        sandbox.child.send({ type: 'invoke', id, requestId: id, event, timeoutMs });
      });
    } finally {
      this.release(sandbox);
    }
  }

  /** Kills every sandbox. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(
      this.sandboxes.map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.child.exitCode !== null || s.child.signalCode !== null) return resolve();
            s.child.once('exit', () => resolve());
            s.child.kill('SIGKILL');
          }),
      ),
    );
  }

  private async acquire(): Promise<Sandbox> {
    for (;;) {
      const live = this.sandboxes.filter((s) => s.child.exitCode === null && s.child.signalCode === null);
      this.sandboxes.splice(0, this.sandboxes.length, ...live);
      const idle = live.find((s) => !s.busy);
      if (idle) return ((idle.busy = true), idle);
      if (live.length < (this.opts.maxSandboxes ?? 4)) {
        const created = this.spawn();
        created.busy = true;
        return created;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private release(sandbox: Sandbox): void {
    sandbox.busy = false;
    this.waiting.shift()?.();
  }

  private spawn(): Sandbox {
    const { fn } = this;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      TZ: 'UTC',
      LANG: 'en_US.UTF-8',
      AWS_REGION: this.opts.region,
      AWS_DEFAULT_REGION: this.opts.region,
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      AWS_LAMBDA_FUNCTION_NAME: fn.name,
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
      AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.name}`,
      LAMBDA_TASK_ROOT: fn.assetDir,
      // The role's temporary credentials; the session token tells the gateway whose role a call uses.
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_SESSION_TOKEN: sessionTokenOf(fn.logicalId),
      AWS_ENDPOINT_URL: this.endpoint,
      // No X-Ray daemon here: the SDK's subsegments have no facade segment to attach to.
      AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
      ...fn.environment,
    };
    const sandbox = { busy: false } as Sandbox;
    const child = fork(BOOTSTRAP, [fn.assetDir, fn.handler, fn.name, fn.arn, String(fn.memoryMb)], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], execArgv: [] });
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        this.logLines.push(line);
        if (this.logLines.length > LOG_LINES) this.logLines.shift();
        if (this.opts.echoLogs ?? process.env.TCS_ASSEMBLY_LOGS === '1') process.stderr.write(`[${fn.logicalId}] ${line}\n`);
      }
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const ready = new Promise<void>((resolve, reject) => {
      child.once('exit', (code, signal) => reject(new FunctionInvocationError(fn.name, 'Runtime.ExitError', `sandbox exited (${code ?? signal}) before it was ready`)));
      child.on('message', (msg: any) => {
        if (msg?.type === 'ready') resolve();
        if (msg?.type !== 'result') return;
        const waiter = this.pending.get(msg.id);
        if (!waiter) return;
        this.pending.delete(msg.id);
        if (msg.ok) waiter.resolve(msg.result);
        else waiter.reject(new FunctionInvocationError(fn.name, msg.error.errorType, msg.error.errorMessage));
      });
    });
    ready.catch(() => undefined);
    Object.assign(sandbox, { child, ready });
    child.once('exit', (code, signal) => {
      // A sandbox that dies mid-invocation fails what it was running (Runtime.ExitError).
      const waiter = sandbox.current ? this.pending.get(sandbox.current) : undefined;
      if (waiter) {
        this.pending.delete(sandbox.current!);
        waiter.reject(new FunctionInvocationError(fn.name, 'Runtime.ExitError', `sandbox exited (${code ?? signal})`));
      }
    });
    this.sandboxes.push(sandbox);
    return sandbox;
  }
}

/** The session token a function's sandbox signs with: how the gateway attributes a call to its role. */
export const sessionTokenOf = (logicalId: string): string => `assembly-fn.${logicalId}`;

/** The function a session token names, or undefined for another caller (a test's own client). */
export const functionOfSessionToken = (token: string | undefined): string | undefined =>
  token?.startsWith('assembly-fn.') ? token.slice('assembly-fn.'.length) : undefined;
