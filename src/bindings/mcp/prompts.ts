/**
 * Prompts over MCP: `prompts/list` and `prompts/get`.
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../../core/error.ts";
import { runHandler } from "../../core/pipeline.ts";
import { isObject } from "../../internal/is-object.ts";
import { describePrompt, promptResultFromValue } from "../../core/prompt.ts";
import { contentFor, shapeOf } from "./revision.ts";
import { inputRequiredResult, roundOf } from "./input-required.ts";
import { requireCapability } from "./lifecycle.ts";
import { listReply } from "./pagination.ts";
import type { McpMethod } from "./request.ts";
import { callMetaOf, sinkFor } from "./sink.ts";

/**
 * Lists the prompts.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The result.
 */
export const promptsList: McpMethod = (ctx, request) => {
  requireCapability(ctx.core.registry, request.envelope.era, "prompts", "prompts/list");
  return listReply(ctx, request, "mcp:prompts", "prompts", () => [...ctx.core.registry.prompts].map(describePrompt));
};

/**
 * Renders a prompt. An unknown prompt, arguments that are not strings, or arguments that fail the
 * prompt's schema (a missing required one, say) are -32602, with the failing paths in `data`. A
 * handler that asks the client (`ctx.elicit()`…) gets an input round on 2026-07-28, and server→client
 * requests on the 2025 revisions.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The result.
 * @throws {ProtocolError} `invalid_params`.
 */
export const promptsGet: McpMethod = async (ctx, request, channel) => {
  const registry = ctx.core.registry;
  requireCapability(registry, request.envelope.era, "prompts", "prompts/get");
  const { name, arguments: args } = request.rpc.params;
  if (typeof name !== "string") throw invalid("name must be a string");
  const prompt = registry.prompt(name);
  if (prompt === undefined) throw invalid(`unknown prompt ${JSON.stringify(name)}`, { prompt: name });
  if (args !== undefined && !isObject(args)) {
    throw invalid("arguments must be an object of strings");
  }
  let value: unknown = args ?? {};
  if (prompt.args !== undefined) {
    const checked = await prompt.args.validate(value);
    if (!checked.ok) {
      const detail = checked.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
      throw invalid(`arguments of prompt ${name}: ${detail}`, { prompt: name, issues: checked.issues });
    }
    value = checked.value;
  }
  const rendered = await runHandler(registry, {
    name,
    scope: `prompt:${name}`,
    arguments: args ?? {},
    meta: callMetaOf(request),
    signal: channel,
    sink: sinkFor(ctx, request, channel),
    round: roundOf(request),
    env: request.host.env,
    auth: request.host.auth,
  }, (call) => prompt.get(value, call));
  if (rendered.asked) return inputRequiredResult(rendered.outcome);
  const result = promptResultFromValue(rendered.value, prompt.description);
  const shape = shapeOf(request.envelope.protocolVersion);
  if (shape !== "current") {
    result.messages = result.messages.map((m) => ({ ...m, content: contentFor([m.content], shape)[0] }));
  }
  return result as unknown as Record<string, unknown>;
};

function invalid(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${message}`, { data });
}
