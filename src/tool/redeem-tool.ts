/**
 * The `redeem` system tool (MCP-lite spec v0.042 §3.6): listed automatically by a server with any long-running tool.
 *
 * @module
 */
import * as v from "valibot";
import type { Registry } from "../core/registry.ts";
import { redeemPromise } from "../core/redeem.ts";
import type { CompiledSchema, ValidationResult } from "../core/schema.ts";
import { defineTool } from "./define-tool.ts";
import { finishTool } from "./finish-tool.ts";
import type { AnyTool } from "../core/tool.ts";

/** The name of the system tool that redeems promise tokens. */
export const REDEEM_TOOL = "redeem";

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
    .input(v.object({
      promise: v.pipe(v.string(), v.minLength(1), v.description("The promise_token of a promise response")),
      cancel: v.optional(v.pipe(v.boolean(), v.description("Cancel the promised work instead of redeeming it"))),
    }))
    .handle((args, ctx) => redeemPromise(registry, args, ctx));
  return finishTool({ ...tool, input: withFastPath(tool.input) });
}

/**
 * The input schema with a fast path: every redeem carries the same two-property object, checked here
 * without the schema library (the call the round trip of MCP-lite spec v0.042 §3.5 repeats); anything
 * else (a missing or empty `promise`, a `cancel` that is not a boolean, a value that is not a plain
 * object) goes to the schema's own validator, so every refusal reads as before. Same JSON Schema.
 */
function withFastPath(schema: CompiledSchema): CompiledSchema {
  return {
    jsonSchema: schema.jsonSchema,
    validate: (value) => fastCheck(value) ?? schema.validate(value),
  };
}

function fastCheck(value: unknown): ValidationResult | undefined {
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return;
  const { promise, cancel } = value as { promise?: unknown; cancel?: unknown };
  if (typeof promise !== "string" || promise.length === 0) return;
  if (cancel === undefined) return { ok: true, value: { promise } };
  return typeof cancel === "boolean" ? { ok: true, value: { promise, cancel } } : undefined;
}
