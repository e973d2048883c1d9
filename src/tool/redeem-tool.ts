/**
 * The `redeem` system tool (MCP-lite spec v0.042 §3.6): listed automatically by a server with any long-running tool.
 *
 * @module
 */
import type { Registry } from "../core/definitions/registry.ts";
import { REDEEM_TOOL, type RedeemArgs } from "../core/long-running/redeem-args.ts";
import { redeemPromise } from "../jobs/redeem.ts";
import { defineTool } from "./define-tool.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import type { ValidationIssue, ValidationResult } from "../core/schema.ts";
import { _stringify } from "valibot"; // a received value as valibot's own messages show it

/**
 * Creates the `redeem` tool of a registry: `@type: "system"`, a required string `promise`, and an
 * optional `cancel` flag that cancels the promise instead.
 *
 * @param registry The registry whose tools' promises it redeems.
 * @returns The tool.
 */
export function createRedeemTool(registry: Registry): AnyTool {
  const tool = defineTool(REDEEM_TOOL)
    .type("system")
    .describe(
      "Redeems a promise token that a long-running tool returned: answers with the final result, or with " +
        "another promise to redeem later (after its retry_after_ms). Pass cancel: true to cancel the work instead.",
    )
    // A JSON Schema, not valibot's: the default server lists this tool, and a one-tool server would
    // otherwise bundle valibot's string, pipe and length actions for it alone (1.2 KB minified).
    .input({
      type: "object",
      properties: {
        promise: { type: "string", minLength: 1, description: "The promise_token of a promise response" },
        cancel: { type: "boolean", description: "Cancel the promised work instead of redeeming it" },
      },
      required: ["promise"],
    })
    .handle((args, ctx) => redeemPromise(registry, args as unknown as RedeemArgs, ctx)); // checked by validate below
  // The fast path of every redeem: arguments of the right shape pass with two type checks; anything
  // else gets the issues valibot's schema of these arguments gave, in its words, key by key. The handler
  // reads no other key.
  const validate = (value: unknown): ValidationResult => {
    const args = value as Partial<RedeemArgs> | null;
    const issues: ValidationIssue[] = [];
    const expected = (path: string, what: string, got: unknown, kind = "type") =>
      issues.push({ path, message: `Invalid ${kind}: Expected ${what} but received ${_stringify(got)}` });
    if (typeof args !== "object" || args === null) expected("", "Object", args);
    else {
      const { promise, cancel } = args;
      if (!("promise" in args)) expected("promise", '"promise"', undefined, "key");
      else if (typeof promise !== "string") expected("promise", "string", promise);
      else if (promise === "") expected("promise", ">=1", 0, "length");
      if (cancel !== undefined && typeof cancel !== "boolean") expected("cancel", "boolean", cancel);
    }
    return issues.length === 0 ? { ok: true, value } : { ok: false, issues };
  };
  return Object.freeze({ ...tool, input: { jsonSchema: tool.input.jsonSchema, validate } });
}
