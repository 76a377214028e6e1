/**
 * Loaded by every task container before it takes its first task (lib/local/cloud.ts, taskModules):
 * the code of every kind of run, which the run task would otherwise import at a kind's first step.
 * Under tsx that costs seconds of CPU in each thread (the parse task's readers most), and a run's
 * first step (Start, TimeoutSeconds 30) timed out paying for it on a loaded machine. A container
 * loads it at its first parse anyway. (On AWS a task Lambda loads its bundle's chunks in milliseconds.)
 */
import { loadRunTask, runKinds } from '../../functions/features.ts';

await Promise.all(runKinds.map((kind) => loadRunTask(kind.name)));
