/**
 * Run kinds: what each kind of run (parse, split, extraction, ...) is called, how its records look
 * and what its task does. The run service and the run state machine's task handler are generic;
 * a kind plugs in here.
 */
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';

export interface RunUsage {
  credits: number;
  page_count?: number;
}

export interface RunContext {
  platform: Platform;
  scope: Scope;
  runId: string;
  /** The stored run record's data (wire fields and the kind's private `_input`). */
  record: Record<string, unknown>;
  /** Whether the run is still wanted (false once cancelled or deleted): long tasks check it between steps. */
  stillWanted(): Promise<boolean>;
  /** Epoch ms by which the work must end (the task's own time budget, with a margin). */
  deadline: number;
  /** Shows how far the work is in the run's record (`progress`, while in progress); absent where nobody reads it (a workflow block). */
  reportProgress?(progress: RunProgress): Promise<void>;
}

/** How far a run's work is: the pages of its document read so far (wire `progress`, API §0.5). */
export interface RunProgress {
  pages_done: number;
  pages_total: number;
}

/**
 * What the API needs to know of a kind of run: names, id prefix, the empty output. Pure data, so the
 * API Lambdas never bundle the work itself.
 */
export interface RunKind {
  /** Event and usage name, e.g. "parse" (webhook event "parse.completed"). */
  name: string;
  /** Store type of its records. */
  type: string;
  /** Id prefix without the underscore, e.g. "prs". */
  idPrefix: string;
  /** Resource name in messages: "Parse prs_... not found". */
  resource: string;
  /** The output before completion (API §0.5). */
  emptyOutput: unknown;
  /**
   * Result fields besides `output` (e.g. `consensus`, `scores`), as they read before completion or
   * with include_output=false. They are stored with the output, not in the record.
   */
  emptyExtras?: Record<string, unknown>;
  /** Reshapes the wire form when a resource does not follow the common `output` layout (schema generation). */
  present?(wire: Record<string, unknown>): Record<string, unknown>;
  /**
   * Names of the results its task may store apart (RunTask `apart`): each an object of its own beside
   * the output, read only where it is shown (a parse's layout, by the dashboard) and never with the
   * output; the result cache keeps a copy, and cancelling or deleting the run deletes them.
   */
  apart?: readonly string[];
}

/** What a run's work gives: its output and usage, and what else the run keeps of it. */
export interface RunResult {
  output: unknown;
  usage: RunUsage;
  extras?: Record<string, unknown>;
  hidden?: Record<string, unknown>;
  /**
   * Results stored as objects of their own (names from RunKind `apart`), not in the output's JSON:
   * large data only one reader needs. A name left out stores nothing.
   */
  apart?: Record<string, unknown>;
  /** Small wire fields set on the record when it completes (e.g. an edit's filled_document_ref). */
  fields?: Record<string, unknown>;
}

/** Pages `first`..`last` (1-based, inclusive) of a run's document: the `index`-th part of a run that fans out. */
export interface PageRange {
  index: number;
  first: number;
  last: number;
}

/**
 * A run split over page ranges (statemachines/run.asl.json: its Ranges map runs each range in a task
 * of its own, at most `concurrency` at once; then Merge). `pagesTotal` is the progress shown until
 * the ranges report theirs.
 */
export interface FanOut {
  ranges: PageRange[];
  concurrency: number;
  pagesTotal: number;
}

/** The background step of a kind (its resource's task.ts): runs only in the task Lambda. */
export interface RunTask {
  kind: RunKind;
  /** Does the work. Throws RunFailure for an expected failure; any other throw is `internal`. */
  execute(ctx: RunContext): Promise<RunResult>;
  /**
   * A kind whose work can be split over page ranges run in parallel (a long PDF's parse): the run
   * machine's execute step asks `plan` first, and when it answers a fan-out, runs `range` for each
   * range (each in a task of its own; what it returns is kept as that range's part, JSON) and then
   * `merge` with the parts in range order, which gives the run's result as `execute` would. Only
   * the run machine fans out: a caller of `execute` (a workflow block) gets the whole work done.
   */
  ranges?: {
    plan(ctx: RunContext): Promise<FanOut | undefined>;
    range(ctx: RunContext, range: PageRange): Promise<unknown>;
    merge(ctx: RunContext, parts: unknown[]): Promise<RunResult>;
  };
}

const registered = new Map<string, RunTask>();

/** Kinds registered at run time (tests), without loading any built-in task. */
export function registeredRunKinds(): RunKind[] {
  return [...registered.values()].map((task) => task.kind);
}

/** A task registered at run time under this kind name, if any (./tasks.ts loadRunTask looks here first). */
export function registeredRunTask(name: string): RunTask | undefined {
  return registered.get(name);
}

/** Registers a task at run time (kinds defined by tests; local inline mode only). */
export function registerRunTask(task: RunTask): void {
  registered.set(task.kind.name, task);
}
