/**
 * Prompts over MCP: `prompts/list` and `prompts/get`.
 *
 * @module
 */
import { CallContext } from "../../core/call-context.ts";
import { ErrorCode, ProtocolError } from "../../core/error.ts";
import { describePrompt, promptResultFromValue } from "../../prompt/prompt-def.ts";
import { roundFor, runInRound } from "./input-required.ts";
import { requireCapability } from "./lifecycle.ts";
import { listReply } from "./pagination.ts";
import type { McpMethod } from "./request.ts";
import { callMetaOf, sinkFor } from "./sink.ts";

/**
 * Lists the prompts.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The reply.
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
 * @returns The reply.
 * @throws {ProtocolError} `invalid_params`.
 */
export const promptsGet: McpMethod = async (ctx, request) => {
  const registry = ctx.core.registry;
  requireCapability(registry, request.envelope.era, "prompts", "prompts/get");
  const { name, arguments: args } = request.rpc.params;
  if (typeof name !== "string") throw invalid("name must be a string");
  const prompt = registry.prompt(name);
  if (prompt === undefined) throw invalid(`unknown prompt ${JSON.stringify(name)}`, { prompt: name });
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
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
  return {
    kind: "run",
    run: async (channel) => {
      const sink = sinkFor(ctx, request, channel);
      const round = roundFor(request, sink);
      const call = new CallContext(name, channel, callMetaOf(request), round ?? sink);
      const who = { scope: `prompt:${name}`, args: args ?? {}, caller: undefined };
      const rendered = await runInRound(ctx, round, who, async () => await prompt.get(value, call));
      if (rendered.asked) return rendered.result;
      return promptResultFromValue(rendered.value, prompt.description) as unknown as Record<string, unknown>;
    },
  };
};

function invalid(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${message}`, { data });
}
