/**
 * The `redeem` system tool (MCP-lite spec v0.042 §3.6): listed automatically by a server with any long-running tool.
 *
 * @module
 */
import type { Registry } from "../core/registry.ts";
import { type RedeemArgs, redeemPromise } from "../core/redeem.ts";
import { defineTool } from "./define-tool.ts";
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
  // else goes through the schema (types and `required`), and an empty token is refused as its `minLength`
  // says. The handler reads no other key.
  const schema = tool.input;
  const validate = (value: unknown) => {
    const args = value as Partial<RedeemArgs> | null;
    if (
      typeof args === "object" && args !== null && typeof args.promise === "string" &&
      (args.cancel === undefined || typeof args.cancel === "boolean")
    ) {
      return args.promise.length > 0
        ? { ok: true as const, value }
        : { ok: false as const, issues: [{ path: "promise", message: "Invalid length: Expected >=1 but received 0" }] };
    }
    return schema.validate(value);
  };
  return Object.freeze({ ...tool, input: { jsonSchema: schema.jsonSchema, validate } });
}
