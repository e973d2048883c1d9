/**
 * The jobs home's one interface to the core (`src/jobs/`: the in-process engine, the queued path, the
 * worker, the conformance cases): all that `src/core/` loads of it. It is the core facade's `longRunning`
 * namespace too: following a promise, the hold setting, promise-as-task state and the cancel table, as
 * bindings and carriers see them.
 *
 * @module
 */
export { followPromise } from "./follow-promise.ts";
export { holdFor, overrideHold } from "./hold-setting.ts";
export { InFlight, RunningRequest, type Scope } from "./in-flight.ts";
export { promiseTasks, type TaskView } from "./promise-task.ts";
export { followPushed } from "./promise-runs.ts";
export { REDEEM_TOOL } from "./redeem.ts";
