/**
 * The jobs layer as bindings and carriers see it (`src/jobs/`: the long-running engine, the queued path, the worker,
 * the conformance cases, all above the core): following a promise, the hold setting, promise-as-task state and the
 * cancel table. The core knows none of it; it holds the engine through its contracts (`src/core/long-running/`).
 *
 * @module
 */
export { followPromise } from "./follow-promise.ts";
export { holdFor, overrideHold } from "./hold-setting.ts";
export { InFlight, RunningRequest, type Scope } from "./in-flight.ts";
export { promiseTasks, type TaskView } from "./promise-task.ts";
