/**
 * What a feature says of itself. Each feature folder (functions/<feature>/) exports one `Feature`
 * from its `feature.ts`; the feature list (./features.ts) names them once, and the route table, the
 * task dispatcher, the sweeper, the workflow blocks, the dashboard's run list and the CLI read it.
 *
 * A feature's `feature.ts` stays light: it imports its operations (the zod wire schemas the routes
 * need) and its run kinds (pure data), and reaches everything heavier (tasks, workflow blocks)
 * through loaders, so a Lambda that reads the list never bundles work it does not do.
 */
import type { Platform } from './platform/platform.ts';
import type { MachineName, Scope } from './platform/ports.ts';
import type { Route, StateMachine } from './platform/route.ts';
import type { FileRef } from './platform/schemas.ts';
import type { RunKind, RunTask } from './runs/kinds.ts';
import type { RunPages } from './dashboard/run-pages.ts';
import type { CreateRunInput } from './runs/service.ts';
import type { SweptType } from './runs/sweeper.ts';

export interface Feature {
  /** Its folder under functions/, e.g. "parses". */
  name: string;
  /** Its HTTP routes (handlers in `<folder>/handlers.ts`). */
  routes?: Route[];
  /** Its kinds of background run, each with its task. */
  runs?: FeatureRun[];
  /** Workflow blocks that run one of its kinds on a document. */
  blocks?: DocumentBlockType[];
  /** State machines it owns besides the run machine (a webhook delivery's, a workflow run's). */
  machines?: Partial<Record<MachineName, StateMachine>>;
  /** Records of its own that a state machine settles, which the sweeper ends when their execution is gone. */
  swept?: SweptType[];
}

export interface FeatureRun {
  kind: RunKind;
  /** Its collection route (`/v1/parses`), where clients read its runs; none for internal kinds. */
  path?: string;
  /**
   * On the dashboard: present means listed among the runs; `startable` from the new-run form, whose
   * pages' code (`pages`: how the form starts one, what its run page draws) the dashboard loads.
   */
  dashboard?: { startable?: boolean; pages?(): Promise<RunPages> };
  /** Loads its task (the work itself): only the task Lambdas call this. */
  task(): Promise<RunTask>;
}

/** How the create body of a block's run is checked (a zod schema's safeParse). */
export interface BodySchema {
  safeParse(v: unknown): { success: boolean; data?: unknown; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

/** What a document block needs to start its run, loaded by the workflow task only. */
export interface DocumentBlock {
  /** The create body's schema of the run kind (the same body the API takes). */
  schema: BodySchema;
  /** The create route's prepare step: the body → the run's fields and task input. */
  prepare(p: Platform, scope: Scope, body: any): Promise<CreateRunInput>;
  /** Whether this config names a stored template to work on instead of the document reaching the block. */
  usesTemplate?(config: Record<string, unknown>): boolean;
  /** The create body from the block's config and what flows into it (default: the config). */
  body?(config: Record<string, unknown>, input: unknown): Record<string, unknown>;
  /** What flows on from its run's result (default: the output, and the same document). */
  result?(output: { output: unknown; fields?: Record<string, unknown> }, document: FileRef | undefined): { output: unknown; document?: FileRef; handle?: string };
}

export interface DocumentBlockType {
  /** The block's type in a workflow definition ("parse", "classifier", "extract", ...). */
  type: string;
  /** The run kind whose task it runs. */
  kind: string;
  load(): Promise<DocumentBlock>;
}
