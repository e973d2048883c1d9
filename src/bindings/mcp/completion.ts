/**
 * `completion/complete` over MCP: suggestions for a prompt argument or a resource-template variable.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { complete, type CompletionRef } from "./complete.ts";
import { registryOf } from "../../core/mod.ts";
import { isObject } from "../../internal/is-object.ts";
import { requireCapability } from "./lifecycle.ts";
import type { McpMethod } from "./mcp-request.ts";

/**
 * Completes an argument. The result is not cacheable, so it carries no caching hints.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The result.
 * @throws {ProtocolError} `invalid_params` for a malformed request or an unknown prompt, template or
 *   argument; `permission_denied` for a prompt or template whose scopes the caller lacks.
 */
export const completionComplete: McpMethod = async (ctx, request, channel) => {
  const registry = registryOf(ctx.core);
  requireCapability(registry, request.envelope.era, "completions", "completion/complete");
  const { ref, argument, context } = request.rpc.params as Record<string, Record<string, unknown> | undefined>;
  let parsed: CompletionRef;
  if (ref?.type === "ref/prompt" && typeof ref.name === "string") parsed = { type: "ref/prompt", name: ref.name };
  else if (ref?.type === "ref/resource" && typeof ref.uri === "string") parsed = { type: "ref/resource", uri: ref.uri };
  else throw invalid('ref must be {type:"ref/prompt",name} or {type:"ref/resource",uri}');
  if (typeof argument?.name !== "string" || typeof argument.value !== "string") {
    throw invalid("argument must be {name, value} with string values");
  }
  const filled = context?.arguments;
  if (filled !== undefined && !isObject(filled)) {
    throw invalid("context.arguments must be an object of strings");
  }
  const completion = await complete(registry, {
    ref: parsed,
    argument: argument.name,
    value: argument.value,
    arguments: (filled ?? {}) as Record<string, string>,
    signal: channel.signal,
    auth: request.host.auth,
  });
  return { completion };
};

function invalid(message: string): ProtocolError {
  return new ProtocolError("invalid_params", `Invalid params: ${message}`);
}
