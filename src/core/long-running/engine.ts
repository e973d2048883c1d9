/**
 * The long-running engine as bindings and carriers see it, reached as the core facade's `longRunning`
 * namespace: following a promise, the hold setting, promise-as-task state and the cancel table.
 *
 * @module
 */
export { followPromise } from "./follow-promise.ts";
export { holdFor, overrideHold } from "./hold-setting.ts";
export { InFlight, RunningRequest, type Scope } from "./in-flight.ts";
export { promiseTasks, type TaskView } from "./promise-task.ts";
