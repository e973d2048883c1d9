/**
 * Listed tools in the shapes model APIs take: OpenAI function tools (Chat Completions and Responses)
 * and Anthropic tools. Pure functions: no API call, no dependency on either SDK.
 *
 * @module
 */
import type { JsonSchema } from "../core/schema.ts";
import type { ToolInfo } from "./transport.ts";
import { visibleTo } from "../internal/mcp-apps-wire.ts";

/**
 * The options of {@link toAnthropicTools}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type AnthropicToolsOptions, toAnthropicTools } from "@mcplite/sdk/client";
 * const listed = [{ name: "redeem", "@type": "system" as const, inputSchema: { type: "object" } }];
 * const options: AnthropicToolsOptions = { skipSystem: false }; // a model that redeems promises itself
 * assert.deepEqual(toAnthropicTools(listed, options).map((tool) => tool.name), ["redeem"]);
 * ```
 */
export interface AnthropicToolsOptions {
  /**
   * Whether system tools are left out (default `true`): MCP-lite's `@type: "system"` ones, such as `redeem`, which
   * the client drives itself. A tool only an app's view may call (SEP-1865, Visibility) is left out regardless.
   */
  skipSystem?: boolean;
}

/**
 * The options of {@link toOpenAITools} and {@link toOpenAIResponsesTools}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type OpenAIToolsOptions, toOpenAIResponsesTools } from "@mcplite/sdk/client";
 * const options: OpenAIToolsOptions = { strict: true }; // the model's arguments always match each schema
 * const [tool] = toOpenAIResponsesTools([{ name: "add", inputSchema: { type: "object" } }], options);
 * assert.equal(tool.strict, true);
 * ```
 */
export interface OpenAIToolsOptions {
  /**
   * Whether system tools are left out (default `true`): MCP-lite's `@type: "system"` ones, such as `redeem`, which
   * the client drives itself. A tool only an app's view may call (SEP-1865, Visibility) is left out regardless.
   */
  skipSystem?: boolean;
  /**
   * Strict schema adherence, for every tool (OpenAI's `strict`; default: not sent to Chat Completions, `false` for
   * the Responses API). OpenAI then requires every schema to list all its properties as required and to forbid
   * others.
   */
  strict?: boolean;
}

/**
 * Turns listed tools into OpenAI Chat Completions `tools`.
 *
 * @param tools The tools, from `client.listTools()`.
 * @param options Whether system tools are kept, and `strict` for every tool.
 * @returns The tools, each `{ type: "function", function: { name, description?, parameters, strict? } }`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toOpenAITools } from "./tool-shapes.ts";
 * const [tool] = toOpenAITools([{ name: "add", description: "Adds", inputSchema: { type: "object" } }]);
 * assert.deepEqual(tool, { type: "function", function: { name: "add", description: "Adds", parameters: { type: "object" } } });
 * ```
 */
export function toOpenAITools(
  tools: readonly ToolInfo[],
  options: OpenAIToolsOptions = {},
): { type: "function"; function: { name: string; description?: string; parameters: JsonSchema; strict?: boolean } }[] {
  return shownToModel(tools, options).map((tool) => {
    const fn: { name: string; description?: string; parameters: JsonSchema; strict?: boolean } = {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: parametersOf(tool),
      ...(options.strict === undefined ? {} : { strict: options.strict }),
    };
    return { type: "function", function: fn };
  });
}

/**
 * Turns listed tools into OpenAI Responses API `tools`.
 *
 * @param tools The tools, from `client.listTools()`.
 * @param options Whether system tools are kept, and `strict` for every tool (default `false`).
 * @returns The tools, each `{ type: "function", name, description?, parameters, strict }`.
 */
export function toOpenAIResponsesTools(
  tools: readonly ToolInfo[],
  options: OpenAIToolsOptions = {},
): { type: "function"; name: string; description?: string; parameters: JsonSchema; strict: boolean }[] {
  return shownToModel(tools, options).map((tool) => {
    const shaped: { type: "function"; name: string; description?: string; parameters: JsonSchema; strict: boolean } = {
      type: "function",
      name: tool.name,
      parameters: parametersOf(tool),
      strict: options.strict ?? false,
    };
    if (tool.description !== undefined) shaped.description = tool.description;
    return shaped;
  });
}

/**
 * Turns listed tools into Anthropic Messages API `tools`.
 *
 * @param tools The tools, from `client.listTools()`.
 * @param options Whether system tools are kept.
 * @returns The tools, each `{ name, description?, input_schema }`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toAnthropicTools } from "./tool-shapes.ts";
 * const [tool] = toAnthropicTools([{ name: "add", inputSchema: { type: "object" } }]);
 * assert.deepEqual(tool, { name: "add", input_schema: { type: "object" } });
 * ```
 */
export function toAnthropicTools(
  tools: readonly ToolInfo[],
  options: AnthropicToolsOptions = {},
): { name: string; description?: string; input_schema: JsonSchema }[] {
  return shownToModel(tools, options).map((tool) => {
    const shaped: { name: string; description?: string; input_schema: JsonSchema } = {
      name: tool.name,
      input_schema: parametersOf(tool),
    };
    if (tool.description !== undefined) shaped.description = tool.description;
    return shaped;
  });
}

/**
 * The tools a model is given: never one only an app's view may call (SEP-1865, Visibility), nor a system tool unless
 * asked (what the converters convert, and what the tool-quality check checks).
 *
 * @param tools The tools, as listed.
 * @param options Whether system tools are left out (default `true`).
 * @returns Those a model sees, in list order.
 */
export function shownToModel(tools: readonly ToolInfo[], options: { skipSystem?: boolean }): readonly ToolInfo[] {
  const skipSystem = options.skipSystem !== false;
  return tools.filter((tool) => visibleTo(tool._meta, "model") && !(skipSystem && tool["@type"] === "system"));
}

/** Both APIs want an object schema at the root. */
function parametersOf(tool: ToolInfo): JsonSchema {
  const schema = tool.inputSchema;
  return typeof schema === "object" && schema !== null ? schema : { type: "object", properties: {} };
}
