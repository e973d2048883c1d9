/**
 * Prompts over MCP: `prompts/list` and `prompts/get`.
 *
 * @module
 */
import {
  type AnyPrompt,
  describePrompt,
  ErrorCode,
  promptResultFromValue,
  ProtocolError,
  runHandler,
  visibleTo,
  withResultMeta,
} from "../../core/mod.ts";
import { isObject } from "../../internal/is-object.ts";
import { contentFor, shapeOf } from "./revision.ts";
import { inputRequiredResult } from "./input-required.ts";
import { requireCapability } from "./lifecycle.ts";
import { listReply } from "./pagination.ts";
import type { McpMethod } from "./request.ts";
import { handlerCallerOf } from "./sink.ts";
import { completionComplete } from "./completion.ts";
import type { McpFeature } from "./feature.ts";

/**
 * Lists the prompts a caller may get (when prompts require scopes, the list is cached per set of scopes
 * the caller holds, privately).
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The result.
 */
export const promptsList: McpMethod = (ctx, request) => {
  requireCapability(ctx.core.registry, request.envelope.era, "prompts", "prompts/list");
  const visible = visibleTo(ctx.core.registry, "prompts", request.host.auth, "mcp:prompts");
  return listReply(ctx, request, visible.key, "prompts", () => visible.items().map(describePrompt), visible.private);
};

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
export const promptsGet: McpMethod = async (ctx, request, channel) => {
  const registry = ctx.core.registry;
  requireCapability(registry, request.envelope.era, "prompts", "prompts/get");
  const { name, arguments: args } = request.rpc.params;
  if (typeof name !== "string") throw invalid("name must be a string");
  const find = () => {
    const prompt = registry.prompt(name);
    if (prompt === undefined) throw invalid(`unknown prompt ${JSON.stringify(name)}`, { prompt: name });
    if (args !== undefined && !isObject(args)) throw invalid("arguments must be an object of strings");
    return prompt;
  };
  const rendered = await runHandler(
    registry,
    {
      method: "prompts/get",
      name,
      scope: `prompt:${name}`,
      arguments: args ?? {},
      ...handlerCallerOf(ctx, request, channel),
    },
    find,
    async (prompt, call) => {
      const value = await prompt.get(await promptArguments(prompt, args ?? {}), call);
      return { prompt, value, call };
    },
  );
  if (rendered.asked) return inputRequiredResult(rendered.outcome);
  const { prompt, value, call } = rendered.value;
  const result = promptResultFromValue(value, prompt.description);
  const shape = shapeOf(request.envelope.protocolVersion);
  if (shape !== "current") {
    result.messages = result.messages.map((m) => ({ ...m, content: contentFor([m.content], shape)[0] }));
  }
  return withResultMeta(result as unknown as Record<string, unknown>, call);
};

async function promptArguments(prompt: AnyPrompt, args: unknown): Promise<unknown> {
  if (prompt.args === undefined) return args;
  const checked = await prompt.args.validate(args);
  if (!checked.ok) {
    const detail = checked.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
    throw invalid(`arguments of prompt ${prompt.name}: ${detail}`, { prompt: prompt.name, issues: checked.issues });
  }
  return checked.value;
}

function invalid(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${message}`, { data });
}

const PROMPT_METHODS = {
  "prompts/list": promptsList,
  "prompts/get": promptsGet,
  "completion/complete": completionComplete,
};

/** The MCP methods that serve prompts, brought by `definePrompt()`: the same on every revision. */
export const PROMPTS_ON_MCP: McpFeature = { mcp: { modern: PROMPT_METHODS, legacy: PROMPT_METHODS } };
