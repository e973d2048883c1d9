/**
 * The `redeem` system tool (MCP-lite spec v0.042 §3.6): listed automatically by a server with any long-running tool.
 *
 * @module
 */
import * as v from "valibot";
import type { Registry } from "../core/registry.ts";
import { REDEEM_TOOL, type RedeemArgs, redeemPromise } from "../core/redeem.ts";
import { defineTool } from "./define-tool.ts";
import type { AnyTool } from "../core/tool.ts";

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
  // The fast path of every redeem: arguments of the right shape pass with two type checks; anything
  // else goes through the schema, for the same issues as before. The handler reads no other key.
  const schema = tool.input;
  const validate = (value: unknown) => {
    const args = value as Partial<RedeemArgs> | null;
    return typeof args === "object" && args !== null && typeof args.promise === "string" &&
        args.promise.length > 0 && (args.cancel === undefined || typeof args.cancel === "boolean")
      ? { ok: true as const, value }
      : schema.validate(value);
  };
  return Object.freeze({ ...tool, input: { jsonSchema: schema.jsonSchema, validate } });
}
