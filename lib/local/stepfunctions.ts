/**
 * A local AWS Step Functions endpoint (DESIGN.md §5).
 *
 * It speaks the wire protocol of `@aws-sdk/client-sfn` (awsJson1_0: `POST /`,
 * `X-Amz-Target: AWSStepFunctions.<Op>`, errors as `{"__type", "message"}`) for StartExecution,
 * DescribeExecution, StopExecution and ListExecutions, and runs the same ASL definitions as on AWS
 * with aws-local-stepfunctions. Every Task state is mapped to `invokeTask(resource, input, order)`,
 * which stands in for the Lambda invoke.
 *
 * A task may wait for a container (the local runtime runs as many tasks at once as it has cores), a
 * wait Lambda does not have on AWS. So a Task state's TimeoutSeconds counts from when its task gets
 * its container (`order.started`), not from when the state began: a run waiting its turn never times
 * out for having waited.
 *
 * Executions live in memory only: a restart forgets them, which is what a restart of the whole local
 * runtime means anyway.
 */
import { randomUUID } from 'node:crypto';
import {
  ExecutionError,
  ExecutionTimeoutError,
  StateMachine,
  type RunOptions,
  type StateMachineDefinition,
} from 'aws-local-stepfunctions';
import { ApiError, describeError, startAwsJsonEndpoint, type AwsJsonOperation } from './aws-json-endpoint.ts';

polyfillPromiseWithResolvers();

export interface LocalStepFunctionsOptions {
  host?: string; // default '127.0.0.1'
  port?: number; // default 0 (ephemeral)
  region?: string; // default 'us-east-1'
  /** State machines by name; definitions have their ${...} substitutions already applied. */
  stateMachines: Record<string, object>;
  /**
   * Runs a Task state's Resource (a Lambda ARN) with the state's input; resolves to the task result.
   * `order.priority` is the execution's start time (earlier executions' tasks first); `order.started`
   * must be called when the task starts running (its state's timeout counts from then).
   */
  invokeTask(resourceArn: string, input: unknown, order: { priority: number; started(): void }): Promise<unknown>;
}

export interface LocalStepFunctions {
  endpoint: string; // http://127.0.0.1:<port>
  stateMachineArn(name: string): string; // arn:aws:states:<region>:000000000000:stateMachine:<name>
  /** Resolves once the execution has ended and none of its tasks is still running (even an abandoned one). */
  whenSettled(executionArn: string): Promise<void>;
  /** Stops accepting requests, aborts running executions, closes the server (no port left bound). */
  close(): Promise<void>;
}

const ACCOUNT_ID = '000000000000';
/** Step Functions' limit on an execution's input, output and every state's data (256 KiB). */
const MAX_PAYLOAD_BYTES = 256 * 1024;
/** Requests carry at most one payload; anything much bigger is a client bug, not a document. */
const MAX_REQUEST_BYTES = 1024 * 1024;
/** AWS: 1-80 characters, no whitespace, brackets, wildcards, special or control characters. */
const EXECUTION_NAME = /^[^\s<>{}[\]?*"#%\\^|~`$&,;:/\u0000-\u001f\u007f-\u009f]{1,80}$/;

type JsonValue = Parameters<StateMachine['run']>[0];
type TaskHandlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;
type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

interface LoadedStateMachine {
  name: string;
  arn: string;
  machine: StateMachine;
  /** Task state name -> its Resource and TimeoutSeconds, over the whole definition (Parallel branches and Map processors too). */
  taskStates: Map<string, TaskState>;
}

interface TaskState {
  resource: string;
  /** The state's TimeoutSeconds in ms (Step Functions' default: 60 s), counted from when its task starts. */
  timeoutMs: number;
}

interface Execution {
  arn: string;
  name: string;
  stateMachine: LoadedStateMachine;
  input: string;
  status: ExecutionStatus;
  startDate: Date;
  stopDate?: Date;
  output?: string;
  error?: string;
  cause?: string;
  abort(): void;
  /** Resolves when the library's run settles (at once on abort); never rejects. */
  ended: Promise<void>;
  /** Task invocations still running; an aborted or timed-out task keeps running until it returns. */
  runningTasks: Set<Promise<unknown>>;
}

/**
 * A Task state that ran past its TimeoutSeconds: the error Step Functions reports (States.Timeout).
 * (The library's own class is not exported. Unlike it, this one is matched by States.TaskFailed,
 * which none of the state machines names.)
 */
class StateTimeout extends Error {
  constructor() {
    super('States.Timeout');
    this.name = 'States.Timeout';
  }
}

/**
 * A task error that the library must neither retry nor catch: it reads `isRetryable` /
 * `isCatchable` off any thrown error (duck-typed, as on its own RuntimeError), defaulting both to true.
 */
class UncatchableTaskError extends Error {
  readonly isRetryable = false;
  readonly isCatchable = false;
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export async function startLocalStepFunctions(options: LocalStepFunctionsOptions): Promise<LocalStepFunctions> {
  const region = options.region ?? 'us-east-1';
  const host = options.host ?? '127.0.0.1';
  const stateMachineArn = (name: string) => `arn:aws:states:${region}:${ACCOUNT_ID}:stateMachine:${name}`;

  // Definitions are validated here, so a broken ASL file fails the start, not the first run.
  const stateMachines = new Map<string, LoadedStateMachine>();
  for (const [name, definition] of Object.entries(options.stateMachines)) {
    const arn = stateMachineArn(name);
    stateMachines.set(arn, loadStateMachine(name, arn, definition as StateMachineDefinition));
  }

  const tokens = new TaskTokens(options.invokeTask);
  const service = new StepFunctionsService(region, stateMachines, tokens.invokeTask, tokens);
  const endpoint = await startAwsJsonEndpoint({
    host,
    port: options.port ?? 0,
    targetPrefix: 'AWSStepFunctions.',
    contentType: 'application/x-amz-json-1.0',
    maxRequestBytes: MAX_REQUEST_BYTES,
    unknownOperationType: 'UnknownOperationException',
    internalErrorType: 'InternalFailure',
    operations: { ...service.operations, ...tokens.operations },
  });

  let closing: Promise<void> | undefined;
  return {
    endpoint: endpoint.endpoint,
    stateMachineArn,
    whenSettled: (executionArn) => service.whenSettled(executionArn),
    close() {
      closing ??= (async () => {
        const stopped = endpoint.close();
        service.abortAll();
        await stopped;
      })();
      return closing;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The service: one method per operation, all state in memory.

/**
 * Closed executions kept for DescribeExecution/ListExecutions (AWS keeps them 90 days). Beyond this
 * many, the oldest closed ones are forgotten: the local runtime runs for days and each run is one.
 */
const MAX_CLOSED_EXECUTIONS = 1000;

class StepFunctionsService {
  private readonly executions = new Map<string, Execution>();
  /** ARNs of closed executions, oldest first. */
  private readonly closed: string[] = [];

  constructor(
    private readonly region: string,
    private readonly stateMachines: Map<string, LoadedStateMachine>,
    private readonly invokeTask: LocalStepFunctionsOptions['invokeTask'],
    private readonly tokens?: TaskTokens,
  ) {}

  readonly operations: Record<string, AwsJsonOperation> = {
    StartExecution: (body) => this.startExecution(body),
    DescribeExecution: (body) => this.describeExecution(body),
    StopExecution: (body) => this.stopExecution(body),
    ListExecutions: (body) => this.listExecutions(body),
  };

  async whenSettled(executionArn: string): Promise<void> {
    const execution = this.executions.get(executionArn);
    if (!execution) throw new Error(`Execution does not exist: ${executionArn}`);
    await execution.ended;
    // A Retry after the last task may start (and at once refuse) another one; loop until none is left.
    while (execution.runningTasks.size > 0) {
      await Promise.allSettled([...execution.runningTasks]);
    }
  }

  abortAll(): void {
    for (const execution of this.executions.values()) {
      if (execution.status === 'RUNNING') {
        this.stop(execution, 'States.Aborted', 'The local Step Functions endpoint was closed');
      }
    }
  }

  private startExecution(body: Record<string, unknown>) {
    const stateMachine = this.requireStateMachine(body.stateMachineArn);
    const name = optionalString(body, 'name') ?? randomUUID();
    if (!EXECUTION_NAME.test(name)) throw new ApiError('InvalidName', `Invalid Name: '${name}'`);
    const input = optionalString(body, 'input') ?? '{}';
    const parsedInput = parseExecutionInput(input);

    const arn = `arn:aws:states:${this.region}:${ACCOUNT_ID}:execution:${stateMachine.name}:${name}`;
    const existing = this.executions.get(arn);
    if (existing) {
      // Standard workflows: the same name and input while open is the same execution; anything else
      // (other input, or the execution already closed) is refused, as on AWS.
      if (existing.status === 'RUNNING' && existing.input === input) {
        return { executionArn: existing.arn, startDate: epochSeconds(existing.startDate) };
      }
      throw new ApiError('ExecutionAlreadyExists', `Execution Already Exists: '${arn}'`);
    }

    const execution = this.run(arn, name, stateMachine, input, parsedInput);
    return { executionArn: execution.arn, startDate: epochSeconds(execution.startDate) };
  }

  private describeExecution(body: Record<string, unknown>) {
    const e = this.requireExecution(body.executionArn);
    return {
      executionArn: e.arn,
      stateMachineArn: e.stateMachine.arn,
      name: e.name,
      status: e.status,
      startDate: epochSeconds(e.startDate),
      stopDate: e.stopDate && epochSeconds(e.stopDate),
      input: e.input,
      inputDetails: { included: true },
      output: e.output,
      outputDetails: e.output === undefined ? undefined : { included: true },
      error: e.error,
      cause: e.cause,
    };
  }

  private stopExecution(body: Record<string, unknown>) {
    const execution = this.requireExecution(body.executionArn);
    if (execution.status === 'RUNNING') {
      this.stop(execution, optionalString(body, 'error'), optionalString(body, 'cause'));
    }
    // Stopping a closed execution changes nothing; answer with the time it ended.
    return { stopDate: epochSeconds(execution.stopDate ?? new Date()) };
  }

  private listExecutions(body: Record<string, unknown>) {
    const stateMachine = this.requireStateMachine(body.stateMachineArn);
    const statusFilter = optionalString(body, 'statusFilter');
    const maxResults = typeof body.maxResults === 'number' && body.maxResults > 0 ? Math.min(body.maxResults, 1000) : 100;
    const offset = Number(optionalString(body, 'nextToken') ?? '0') || 0;

    // Newest first, like AWS.
    const matching = [...this.executions.values()]
      .filter((e) => e.stateMachine === stateMachine && (!statusFilter || e.status === statusFilter))
      .sort((a, b) => b.startDate.getTime() - a.startDate.getTime());
    const page = matching.slice(offset, offset + maxResults);
    const nextOffset = offset + page.length;
    return {
      executions: page.map((e) => ({
        executionArn: e.arn,
        stateMachineArn: e.stateMachine.arn,
        name: e.name,
        status: e.status,
        startDate: epochSeconds(e.startDate),
        stopDate: e.stopDate && epochSeconds(e.stopDate),
      })),
      nextToken: nextOffset < matching.length ? String(nextOffset) : undefined,
    };
  }

  // --- running executions ---

  private run(arn: string, name: string, stateMachine: LoadedStateMachine, input: string, parsedInput: JsonValue): Execution {
    const startDate = new Date();
    const execution: Execution = {
      arn,
      name,
      stateMachine,
      input,
      status: 'RUNNING',
      startDate,
      abort: () => {},
      ended: Promise.resolve(),
      runningTasks: new Set(),
    };
    this.executions.set(arn, execution);

    const handlers: TaskHandlers = {};
    for (const [stateName, state] of stateMachine.taskStates) {
      handlers[stateName] = (taskInput) => this.runTask(execution, state, taskInput) as Promise<JsonValue>;
    }
    const run = stateMachine.machine.run(parsedInput, {
      overrides: { taskResourceLocalHandlers: handlers },
      // On abort, resolve with null instead of rejecting: StopExecution has already recorded the outcome.
      noThrowOnAbort: true,
      context: {
        Execution: { Id: arn, Name: name, StartTime: startDate.toISOString() },
        StateMachine: { Id: stateMachine.arn, Name: stateMachine.name },
        // `$$.Task.Token`: a stand-in naming the execution; TaskTokens gives each waiting task a real token.
        Task: { Token: `${TASK_TOKEN_STAND_IN}${arn}` },
      },
    });
    execution.abort = run.abort;
    execution.ended = run.result
      .then(
        (output) => this.succeed(execution, output),
        (error: unknown) => this.fail(execution, error),
      )
      .then(() => {
        // The library's run (its whole state) is reachable through abort: let it go once settled.
        execution.abort = () => {};
      });
    return execution;
  }

  /** Stands in for the Lambda invoke of a Task state. */
  private async runTask(execution: Execution, state: TaskState, input: unknown): Promise<unknown> {
    const { resource } = state;
    // A running task is not interrupted by an abort, but a Retry after it must not invoke again.
    if (execution.status !== 'RUNNING') {
      throw new UncatchableTaskError('States.Aborted', 'The execution was stopped');
    }
    // The state's timeout starts with its task (not while the task waits for a container). Like on
    // AWS, a task that outlives its state goes on running (until its function's own timeout).
    let timer: NodeJS.Timeout | undefined;
    let timeOut!: (error: Error) => void;
    const timedOut = new Promise<never>((_, reject) => (timeOut = reject));
    const started = () => (timer = setTimeout(() => timeOut(new StateTimeout()), state.timeoutMs));
    // Through a promise constructor, so a synchronous throw is shaped like any other task error.
    const invocation = new Promise<unknown>((resolve) => resolve(this.invokeTask(resource, input, { priority: execution.startDate.getTime(), started })));
    // Tracked until it returns, even past its state's timeout (whenSettled waits for it).
    execution.runningTasks.add(invocation);
    const untrack = () => execution.runningTasks.delete(invocation);
    invocation.then(untrack, untrack);
    let result: unknown;
    try {
      result = await Promise.race([invocation, timedOut]);
    } catch (error) {
      if (error instanceof StateTimeout) throw error;
      throw asLambdaError(error);
    } finally {
      clearTimeout(timer);
    }
    // Round-trip through JSON as the Lambda wire would (undefined -> null, Dates -> strings).
    const json = JSON.stringify(result ?? null);
    if (Buffer.byteLength(json) > MAX_PAYLOAD_BYTES) {
      // On AWS this is a terminal error that States.ALL does not catch.
      throw new UncatchableTaskError(
        'States.DataLimitExceeded',
        `The state/task '${resource}' returned a result with a size exceeding the maximum number of bytes service limit.`,
      );
    }
    return JSON.parse(json);
  }

  private succeed(execution: Execution, output: unknown): void {
    if (execution.status !== 'RUNNING') return; // stopped meanwhile: a late result is ignored
    const json = JSON.stringify(output ?? null);
    if (Buffer.byteLength(json) > MAX_PAYLOAD_BYTES) {
      this.finish(execution, 'FAILED', {
        error: 'States.DataLimitExceeded',
        cause: 'The execution output has a size exceeding the maximum number of bytes service limit.',
      });
      return;
    }
    this.finish(execution, 'SUCCEEDED', { output: json });
  }

  private fail(execution: Execution, error: unknown): void {
    if (execution.status !== 'RUNNING') return;
    if (error instanceof ExecutionTimeoutError) {
      this.finish(execution, 'TIMED_OUT', {});
    } else if (error instanceof ExecutionError && error.cause instanceof Error) {
      // The error of the state that failed the execution (a task's, a Fail state's, States.Runtime...).
      this.finish(execution, 'FAILED', { error: error.cause.name, cause: error.cause.message });
    } else {
      this.finish(execution, 'FAILED', { error: 'States.Runtime', cause: describeError(error) });
    }
  }

  private stop(execution: Execution, error: string | undefined, cause: string | undefined): void {
    // Record the outcome first: whatever the running task returns later is then ignored.
    this.finish(execution, 'ABORTED', { error, cause });
    this.tokens?.drop(execution.arn);
    execution.abort();
  }

  private finish(
    execution: Execution,
    status: Exclude<ExecutionStatus, 'RUNNING'>,
    outcome: { output?: string; error?: string; cause?: string },
  ): void {
    execution.status = status;
    execution.stopDate = new Date();
    this.closed.push(execution.arn);
    while (this.closed.length > MAX_CLOSED_EXECUTIONS) this.executions.delete(this.closed.shift()!);
    execution.output = outcome.output;
    execution.error = outcome.error;
    execution.cause = outcome.cause;
  }

  // --- argument checks ---

  private requireStateMachine(arn: unknown): LoadedStateMachine {
    if (typeof arn !== 'string' || !arn.startsWith('arn:aws:states:')) {
      throw new ApiError('InvalidArn', `Invalid Arn: '${String(arn)}'`);
    }
    const stateMachine = this.stateMachines.get(arn);
    if (!stateMachine) throw new ApiError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`);
    return stateMachine;
  }

  private requireExecution(arn: unknown): Execution {
    if (typeof arn !== 'string' || !arn.startsWith('arn:aws:states:')) {
      throw new ApiError('InvalidArn', `Invalid Arn: '${String(arn)}'`);
    }
    const execution = this.executions.get(arn);
    if (!execution) throw new ApiError('ExecutionDoesNotExist', `Execution Does Not Exist: '${arn}'`);
    return execution;
  }
}

// ---------------------------------------------------------------------------------------------
// State machine definitions

function loadStateMachine(name: string, arn: string, given: StateMachineDefinition): LoadedStateMachine {
  // A copy: the library's validator writes into the definition (a QueryLanguage on every state), and
  // so does collectTaskStates.
  const definition = structuredClone(given);
  const taskStates = new Map<string, TaskState>();
  collectTaskStates(definition, taskStates);
  // Validates the definition; costs ~0.1-0.6 s per machine (asl-validator compiles its JSON schemas each time).
  return { name, arn, machine: new StateMachine(definition), taskStates };
}

/** Step Functions' default TimeoutSeconds of a Task state. */
const DEFAULT_TASK_TIMEOUT_SECONDS = 60;
/**
 * What the library's own timer of a Task state is set to (runTask times the state instead, from when
 * its task starts): far beyond any wait, within what a Node timer can count (2^31 ms, ~24 days).
 */
const LIBRARY_TASK_TIMEOUT_SECONDS = 2_000_000;

/**
 * The library looks local task handlers up by *state name*, for nested state machines too, so one
 * name must mean one Resource (and one timeout) across the whole definition. Each Task state's
 * TimeoutSeconds is taken over by runTask; the library's timer is pushed out of the way.
 */
function collectTaskStates(definition: { States: Record<string, unknown> }, into: Map<string, TaskState>): void {
  for (const [stateName, state] of Object.entries(definition.States)) {
    const s = state as {
      Type?: string;
      Resource?: string;
      TimeoutSeconds?: number;
      TimeoutSecondsPath?: string;
      Branches?: { States: Record<string, unknown> }[];
      ItemProcessor?: { States: Record<string, unknown> };
      Iterator?: { States: Record<string, unknown> };
    };
    if (s.Type === 'Task' && typeof s.Resource === 'string') {
      if (s.TimeoutSecondsPath !== undefined) throw new Error(`Task state '${stateName}': TimeoutSecondsPath is not supported by the local Step Functions`);
      const task = { resource: s.Resource, timeoutMs: (s.TimeoutSeconds ?? DEFAULT_TASK_TIMEOUT_SECONDS) * 1000 };
      const known = into.get(stateName);
      if (known !== undefined && (known.resource !== task.resource || known.timeoutMs !== task.timeoutMs)) {
        throw new Error(`Task state name '${stateName}' is used for two resources or timeouts (${known.resource}, ${task.resource})`);
      }
      into.set(stateName, task);
      s.TimeoutSeconds = LIBRARY_TASK_TIMEOUT_SECONDS;
    }
    for (const branch of s.Branches ?? []) collectTaskStates(branch, into);
    const processor = s.ItemProcessor ?? s.Iterator;
    if (processor) collectTaskStates(processor, into);
  }
}

/**
 * Shapes a task failure like a Lambda function error seen by Step Functions: Error is the error's
 * name and Cause a JSON string `{"errorType","errorMessage"}` (the library's Catch uses the message
 * as the Cause).
 */
function asLambdaError(error: unknown): Error {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  const lambdaError = new Error(JSON.stringify({ errorType: name, errorMessage: message }));
  lambdaError.name = name;
  return lambdaError;
}

function parseExecutionInput(input: string): JsonValue {
  if (Buffer.byteLength(input) > MAX_PAYLOAD_BYTES) {
    throw new ApiError('ValidationException', `input exceeds the maximum of ${MAX_PAYLOAD_BYTES} bytes`);
  }
  try {
    return JSON.parse(input) as JsonValue;
  } catch {
    throw new ApiError('InvalidExecutionInput', 'Invalid State Machine Execution Input: input is not valid JSON');
  }
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ApiError('ValidationException', `${key} must be a string`);
  return value;
}

/** The SFN JSON protocol sends timestamps as epoch seconds (with a fraction). */
function epochSeconds(date: Date): number {
  return date.getTime() / 1000;
}

/**
 * aws-local-stepfunctions calls Promise.withResolvers (Node 22+) in every Task state. On Node 20
 * the TypeError would surface as a task failure, which a Catch then silently turns into a "normal"
 * failure path, so install it before anything runs.
 */
function polyfillPromiseWithResolvers(): void {
  const PromiseCtor = Promise as unknown as { withResolvers?: unknown };
  if (typeof PromiseCtor.withResolvers === 'function') return;
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    enumerable: false,
    value: function withResolvers<T>(this: PromiseConstructor) {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new this<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Task tokens (`.waitForTaskToken`): SendTaskSuccess and SendTaskFailure

/** The Task resource of a Lambda invoke that waits for its task token (the only callback pattern Quire uses). */
const WAIT_FOR_TASK_TOKEN = 'arn:aws:states:::lambda:invoke.waitForTaskToken';
const TASK_TOKEN_STAND_IN = 'local-task-token-of:';

/**
 * aws-local-stepfunctions 3.0 has no callback pattern: it reads no `.waitForTaskToken` and has no
 * `$$.Task.Token`. This adds what Quire uses of it, as Step Functions does it: a Task state whose
 * Resource is `arn:aws:states:::lambda:invoke.waitForTaskToken` invokes `Parameters.FunctionName`
 * with `Parameters.Payload`, where the `$$.Task.Token` stand-in (set in every execution's context)
 * is replaced by a fresh token; the invoke's own answer is ignored and the state waits until
 * SendTaskSuccess (its output becomes the state's result) or SendTaskFailure (its error), within
 * the state's TimeoutSeconds. A stopped execution's tokens are dropped (TaskDoesNotExist after).
 * Tokens live in memory, like executions: after a restart the waiting run's execution is started
 * again (lib/local/recovery.ts) and its task registers a new token.
 */
class TaskTokens {
  private readonly waiting = new Map<string, { executionArn: string; resolve(output: unknown): void; reject(error: Error): void }>();

  constructor(private readonly invoke: LocalStepFunctionsOptions['invokeTask']) {}

  readonly invokeTask = (async (resource: string, input: unknown, ...rest: unknown[]) => {
    const call = this.invoke as unknown as (resource: string, input: unknown, ...rest: unknown[]) => Promise<unknown>;
    if (resource !== WAIT_FOR_TASK_TOKEN) return call(resource, input, ...rest);
    const { FunctionName: functionName, Payload: payload } = (input ?? {}) as { FunctionName?: unknown; Payload?: unknown };
    if (typeof functionName !== 'string') throw new Error(`${WAIT_FOR_TASK_TOKEN} needs Parameters.FunctionName`);
    const standIn = findStandIn(payload);
    if (!standIn) throw new Error(`${WAIT_FOR_TASK_TOKEN} needs the task token in Parameters.Payload ("...": "$$.Task.Token")`);
    const token = `${Buffer.from(standIn.slice(TASK_TOKEN_STAND_IN.length)).toString('base64url')}.${randomUUID()}`;
    const answered = new Promise<unknown>((resolve, reject) => this.waiting.set(token, { executionArn: standIn.slice(TASK_TOKEN_STAND_IN.length), resolve, reject }));
    answered.catch(() => {}); // awaited below; a drop before then is not an unhandled rejection
    try {
      await call(functionName, replaceStandIn(payload, standIn, token), ...rest);
      return await answered;
    } finally {
      this.waiting.delete(token);
    }
  }) as LocalStepFunctionsOptions['invokeTask'];

  /** Every waiting task of a stopped execution ends (its result would be ignored anyway). */
  drop(executionArn: string): void {
    for (const [token, waiter] of this.waiting) {
      if (waiter.executionArn !== executionArn) continue;
      this.waiting.delete(token);
      waiter.reject(new UncatchableTaskError('States.Aborted', 'The execution was stopped'));
    }
  }

  readonly operations: Record<string, AwsJsonOperation> = {
    SendTaskSuccess: (body) => {
      const waiter = this.take(body);
      let output: unknown;
      try {
        output = JSON.parse(optionalString(body, 'output') ?? 'null');
      } catch {
        throw new ApiError('InvalidOutput', 'output is not valid JSON');
      }
      waiter.resolve(output);
      return {};
    },
    SendTaskFailure: (body) => {
      const waiter = this.take(body);
      const error = new Error(optionalString(body, 'cause') ?? '');
      error.name = optionalString(body, 'error') ?? 'States.TaskFailed';
      waiter.reject(error);
      return {};
    },
  };

  private take(body: Record<string, unknown>) {
    const token = optionalString(body, 'taskToken');
    if (!token) throw new ApiError('InvalidToken', 'taskToken is required');
    const waiter = this.waiting.get(token);
    if (!waiter) throw new ApiError('TaskDoesNotExist', 'Task Does Not Exist');
    this.waiting.delete(token);
    return waiter;
  }
}

function findStandIn(value: unknown): string | undefined {
  if (typeof value === 'string') return value.startsWith(TASK_TOKEN_STAND_IN) ? value : undefined;
  if (Array.isArray(value)) return value.map(findStandIn).find(Boolean);
  if (value && typeof value === 'object') return Object.values(value).map(findStandIn).find(Boolean);
  return undefined;
}

function replaceStandIn(value: unknown, standIn: string, token: string): unknown {
  if (value === standIn) return token;
  if (Array.isArray(value)) return value.map((v) => replaceStandIn(v, standIn, token));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceStandIn(v, standIn, token)]));
  return value;
}
