/**
 * Conformance cases for what plugs into a server, under whatever test runner you use: `resultStoreCases()`
 * checks a `ResultStore` of your own against the contract every store of the SDK passes, `journalStoreCases()` a
 * `JournalStore`, `workQueueCases()` a `WorkQueue` against the one `bullmqQueue()` passes.
 *
 * @module
 */
export { resultStoreCases, type ResultStoreCasesOptions } from "../jobs/cases/result-store-cases.ts";
export { journalStoreCases, type JournalStoreCasesOptions } from "../jobs/cases/journal-store-cases.ts";
export { workQueueCases, type WorkQueueCasesOptions } from "../jobs/cases/work-queue-cases.ts";
