// Worker threads do not inherit the parent's TypeScript loader on Node 20: register tsx here, then
// load the worker itself. (Plain JavaScript so Node can start it without any loader.)
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

// A background task's container runs below the API's (Linux keeps a nice value per thread; threads
// started from here, the loader's among them, inherit it): on a machine busy with both, requests get
// the cores first and tasks take what is left, as on AWS the API does not share the tasks' Lambdas.
if (workerData?.niceness) {
  try {
    setPriority(0, workerData.niceness);
  } catch {
    // Not allowed here: the task runs at the API's priority.
  }
}
register();
await import('./worker.ts');
