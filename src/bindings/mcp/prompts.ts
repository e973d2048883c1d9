/**
 * Prompts over MCP: `prompts/list` and `prompts/get`.
 *
 * @module
 */
import { describePrompt, registryOf } from "../../core/mod.ts";
import { renderPrompt } from "../render-prompt.ts";
import { contentFor, shapeOf } from "./revision.ts";
import { inputRequiredResult } from "./input-required.ts";
import { requireCapability } from "./lifecycle.ts";
import { scopedList } from "./scoped-list.ts";
import type { McpMethod } from "./mcp-request.ts";
import { handlerCallerOf } from "./sink.ts";
import { completionComplete } from "./completion.ts";
import type { McpFeature } from "./feature-methods.ts";
import { ownLayer } from "./request-middleware.ts";

/** Lists the prompts a caller may get. */
export const promptsList: McpMethod = /* @__PURE__ */ scopedList(
  "prompts",
  "mcp:prompts",
  "prompts",
  (visible) => visible.map(describePrompt),
);

/**
 * Renders a prompt. An unknown prompt, arguments that are not strings, or arguments that fail the
 * prompt's schema (a missing required one, say) are -32602, with the failing paths in `data`. A
 * handler that asks the client (`ctx.elicit()`…) gets an input round on 2026-07-28, and server→client
 * requests on the 2025 revisions. A prompt with scopes the caller lacks is refused (403
 * `insufficient_scope`) before its arguments are looked at.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The result.
 * @throws {ProtocolError} `invalid_params`; `permission_denied` for a missing scope.
 */
export const promptsGet: McpMethod = /* @__PURE__ */ ownLayer(async (ctx, request, channel) => {
  const registry = registryOf(ctx.core);
  requireCapability(registry, request.envelope.era, "prompts", "prompts/get");
  const { name, arguments: args } = request.rpc.params;
  const rendered = await renderPrompt(registry, name, args, handlerCallerOf(ctx, request, channel));
  if (rendered.asked) return inputRequiredResult(rendered.outcome);
  const result = rendered.value;
  const shape = shapeOf(request.envelope.protocolVersion);
  if (shape !== "current") {
    result.messages = result.messages.map((m) => ({ ...m, content: contentFor([m.content], shape)[0] }));
  }
  return result as unknown as Record<string, unknown>;
});

const PROMPT_METHODS = {
  "prompts/list": promptsList,
  "prompts/get": promptsGet,
  "completion/complete": completionComplete,
};

/** The MCP methods that serve prompts, brought by `definePrompt()`: the same on every revision. */
export const PROMPTS_ON_MCP: McpFeature = { mcp: { modern: PROMPT_METHODS, legacy: PROMPT_METHODS } };
