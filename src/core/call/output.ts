/**
 * The declared output schema, enforced. MCP 2025-06-18 onward (Tools, Output Schema): "Servers MUST
 * provide structured results that conform to this schema", and the typed client promises the declared
 * type. A result that does not conform never leaves the server: the mismatch goes to `onError` (by default
 * the server's log) and the caller gets a masked internal error.
 *
 * @module
 */
import { ProtocolError, replacementError } from "../../errors/error.ts";
import { Masked } from "../results/masking.ts";
import { resultFromValue, type ToolResult } from "../results/result.ts";
import type { ValidationIssue } from "../schema.ts";
import { formatIssues } from "../definitions/standard-result.ts";
import type { AnyTool } from "../definitions/tool.ts";
import { nonFinitePath } from "../../internal/non-finite.ts";

/** Reported to `onError` when a tool's result does not conform to its output schema; never sent. */
export class OutputMismatchError extends Error {
  /** The tool. */
  declare readonly tool: string;
  /** What does not conform, with the property paths. */
  declare readonly issues: readonly ValidationIssue[];

  /**
   * Creates the report.
   *
   * @param tool The tool name.
   * @param issues What does not conform.
   */
  constructor(tool: string, issues: readonly ValidationIssue[]) {
    super(`tool "${tool}" returned a result that does not match its output schema: ${formatIssues(issues)}`);
    this.tool = tool;
    this.issues = issues;
    this.name = "OutputMismatchError";
  }
}

/**
 * Turns a handler's value into its result and, when the tool declares an output schema, checks the
 * result: a complete (not `isError`) result must carry `structuredContent` that the schema accepts and
 * that JSON can carry as is (no `Infinity` or `NaN`, which JSON turns into `null`).
 *
 * @param tool The tool whose output schema applies.
 * @param value What the handler returned (or a `ToolResult`).
 * @param report Receives the {@link OutputMismatchError} of a result that does not conform; may return the
 *   error to answer instead (`onError`'s `{ code, message, data }`) or a reference to give (`maskErrors`).
 * @returns The result (a promise only when the schema validates asynchronously).
 * @throws {ProtocolError} `internal` ("Internal error", with the reference under `maskErrors`) for a result
 *   that does not conform.
 */
export function resultOf(
  tool: AnyTool,
  value: unknown,
  report: (error: unknown) => unknown,
): ToolResult | Promise<ToolResult> {
  const result = resultFromValue(value);
  const output = tool.output;
  if (output === undefined || result.isError === true) return result;
  const structured = result.structuredContent;
  if (structured === undefined) return mismatch(tool, [{ path: "", message: "structuredContent is missing" }], report);
  const checked = output.validate(structured);
  if (checked instanceof Promise) {
    return checked.then((c) => c.ok ? conforming(tool, result, report) : mismatch(tool, c.issues, report));
  }
  return checked.ok ? conforming(tool, result, report) : mismatch(tool, checked.issues, report);
}

function conforming(tool: AnyTool, result: ToolResult, report: (error: unknown) => unknown): ToolResult {
  const path = nonFinitePath(result.structuredContent);
  return path === undefined
    ? result
    : mismatch(tool, [{ path, message: "a number JSON cannot carry (Infinity or NaN)" }], report);
}

function mismatch(tool: AnyTool, issues: readonly ValidationIssue[], report: (error: unknown) => unknown): never {
  const error = new OutputMismatchError(tool.name, issues);
  const answer = report(error);
  const masked = answer instanceof Masked ? answer : undefined; // the mismatch names the server's schema
  throw replacementError(error, answer) ?? new ProtocolError("internal", masked?.message ?? "Internal error", masked);
}
