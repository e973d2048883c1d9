/**
 * Test kits for what plugs into a server and for durable code, under whatever test runner you use:
 * `sharedStoreCases()`, `resultStoreCases()`, `journalStoreCases()` and `workQueueCases()` check a store or queue of
 * your own against the contract the SDK's pass; `durableRun()` runs a tool's declared work in memory (sleeps skipped,
 * steps mocked, a crash injected and resumed), and `checkIdempotent()` crashes it after each step to find one that is
 * not safe to run again. `checkTools()` checks a tool list as a model meets it, offline: the tools it would confuse,
 * what the list costs in tokens, a lint of names and schemas, and selection cases scored.
 *
 * @module
 */
export { sharedStoreCases, type SharedStoreCasesOptions } from "../store/cases/shared-store-cases.ts";
export { resultStoreCases, type ResultStoreCasesOptions } from "../jobs/cases/result-store-cases.ts";
export { journalStoreCases, type JournalStoreCasesOptions } from "../jobs/cases/journal-store-cases.ts";
export { workQueueCases, type WorkQueueCasesOptions } from "../jobs/cases/work-queue-cases.ts";
export { type CrashPoint, durableRun, type DurableRunOptions, type DurableRunReport } from "./durable-run.ts";
export {
  checkIdempotent,
  type IdempotenceOptions,
  type IdempotenceReport,
  type NotIdempotent,
} from "./check-idempotent.ts";
export { checkTools, type ToolCheckOptions } from "../quality/check-tools.ts";
export type {
  CaseResult,
  ConfusablePair,
  Confusion,
  ConfusionReason,
  FormatCost,
  ModelChoice,
  ModelLane,
  ModelRequest,
  ModelResult,
  ModelScore,
  SelectionCase,
  SelectionScore,
  Severity,
  TokenCost,
  TokenEncoding,
  ToolCheckReport,
  ToolFinding,
  ToolFormat,
  ToolRule,
} from "../quality/check-report.ts";
