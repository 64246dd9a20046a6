/**
 * Step Functions stand-in: `StartExecution` runs the state machine's definition from the template (its
 * `DefinitionString` with `DefinitionSubstitutions` applied: the function ARNs CloudFormation resolves) with
 * aws-local-stepfunctions. Each Task's `Resource` (a function or alias ARN) goes to `invokeFunction`, as Step
 * Functions invokes Lambda with the state machine's role; a function error becomes the state error
 * (`Error` = its `errorType`), so the definition's own `Retry` and `Catch` apply. Execution names are
 * idempotent as in AWS: the same name and input return the same execution, another input
 * `ExecutionAlreadyExists`. Wait states wait `waitMs` (default 100 ms) instead of their seconds.
 */
import '../../promise-with-resolvers.ts';
import { StateMachine } from 'aws-local-stepfunctions';
import { jsonError, jsonReply, type Backend } from '../aws-gateway.ts';

/** A state machine of the assembly. */
export interface DeployedStateMachine {
  arn: string;
  roleArn: string;
  /** The resolved ASL. */
  definition: { States: Record<string, { Type: string; Resource?: string }> } & Record<string, unknown>;
}

export interface StepFunctionsEmulator {
  backend: Backend;
  /** Resolves when no execution is running. */
  idle(): Promise<void>;
  /** How each execution ended, by execution ARN. */
  executions: Map<string, { input: string; status: 'RUNNING' | 'SUCCEEDED' | 'FAILED'; error?: string }>;
}

export function stepFunctionsEmulator(opts: {
  machines: DeployedStateMachine[];
  invokeFunction(arn: string, input: unknown, roleArn: string): Promise<unknown>;
  waitMs?: number;
}): StepFunctionsEmulator {
  const executions: StepFunctionsEmulator['executions'] = new Map();
  const running = new Set<Promise<unknown>>();
  const start = (machine: DeployedStateMachine, executionArn: string, input: string) => {
    const sm = new StateMachine(machine.definition as never, { validationOptions: { checkArn: false, checkPaths: true } });
    const handlers: Record<string, (input: unknown) => Promise<unknown>> = {};
    const waits: Record<string, number> = {};
    for (const [name, state] of Object.entries(machine.definition.States)) {
      if (state.Type === 'Wait') waits[name] = opts.waitMs ?? 100;
      if (state.Type !== 'Task' || !state.Resource) continue;
      const resource = state.Resource;
      handlers[name] = async (taskInput) => {
        try {
          return (await opts.invokeFunction(resource, taskInput, machine.roleArn)) ?? {};
        } catch (err) {
          const e = err as { errorType?: string; message?: string };
          const failure = new Error(JSON.stringify({ errorType: e.errorType, errorMessage: e.message }));
          failure.name = e.errorType ?? 'Lambda.Unknown';
          throw failure;
        }
      };
    }
    const execution = sm.run(JSON.parse(input), { overrides: { taskResourceLocalHandlers: handlers as never, waitTimeOverrides: waits } });
    const record = { input, status: 'RUNNING' as 'RUNNING' | 'SUCCEEDED' | 'FAILED', error: undefined as string | undefined };
    executions.set(executionArn, record);
    const done = execution.result.then(
      () => void (record.status = 'SUCCEEDED'),
      (err: unknown) => void ((record.status = 'FAILED'), (record.error = err instanceof Error ? `${err.name}: ${err.message}` : String(err))),
    );
    running.add(done);
    void done.finally(() => running.delete(done));
  };
  const backend: Backend = async (req) => {
    if (req.target !== 'StartExecution') return jsonError('UnsupportedOperation', `Step Functions ${req.target} is not emulated`);
    const body = JSON.parse(req.body.toString('utf8')) as { stateMachineArn: string; name?: string; input?: string };
    const machine = opts.machines.find((m) => m.arn === body.stateMachineArn);
    if (!machine) return jsonError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${body.stateMachineArn}'`);
    const name = body.name ?? crypto.randomUUID();
    const executionArn = `${machine.arn.replace(':stateMachine:', ':execution:')}:${name}`;
    const input = body.input ?? '{}';
    const existing = executions.get(executionArn);
    if (existing && existing.input !== input) return jsonError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    if (!existing) start(machine, executionArn, input);
    return jsonReply({ executionArn, startDate: Date.now() / 1000 });
  };
  return {
    backend,
    executions,
    async idle() {
      while (running.size) await Promise.all([...running]);
    },
  };
}
