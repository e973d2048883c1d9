/**
 * Webtools metadata as the tool definitions the Vercel AI SDK expects (`{ description, parameters,
 * execute }`), as pure code: no dependency on the SDK and no transport of its own. The caller supplies
 * how an action runs (a function, or a client over `createWebtoolsTransport()`), and (optionally) how a
 * JSON Schema is wrapped for the SDK (its `jsonSchema()`).
 *
 * @module
 */
import type { WebtoolsMetadata } from "../bindings/webtools/metadata.ts";
import type { JsonSchema } from "../core/schema.ts";

/** Runs one action and resolves with its `data` (rejecting on an error envelope). */
/** One tool definition, as the AI SDK's `tools` record holds it (written out where it is returned). */
type AiTool<P> = {
  description: string;
  parameters: P;
  execute: (args: Record<string, unknown>, options?: { abortSignal?: AbortSignal }) => Promise<unknown>;
};

type WebtoolsCall = (action: string, request: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>;

/**
 * The options of {@link webtoolsToAiTools}: how each action's request schema is handed to the AI SDK, and which
 * actions become tools.
 *
 * @typeParam TParameters What a tool's `parameters` is (the AI SDK's `Schema`, from its `jsonSchema()`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { webtoolsToAiTools, type WebtoolsToAiToolsOptions } from "@mcplite/sdk/client/webtools";
 *
 * // In an app: `parameters: (schema) => jsonSchema(schema)`, with `jsonSchema` from npm `ai`.
 * const options: WebtoolsToAiToolsOptions<{ wrapped: object }> = {
 *   parameters: (schema) => ({ wrapped: schema }),
 *   actions: ["get_current"],
 * };
 * const metadata = {
 *   name: "weather", description: "Weather", version: "1.0.0", configSchema: {}, defaultConfig: {},
 *   actions: [
 *     { name: "get_current", description: "Now", requestSchema: { type: "object" }, responseSchema: {} },
 *     { name: "get_forecast", description: "Later", requestSchema: { type: "object" }, responseSchema: {} },
 *   ],
 * };
 * const tools = webtoolsToAiTools(metadata, async () => ({}), options);
 * assert.deepEqual(Object.keys(tools), ["get_current"]);
 * assert.deepEqual(tools.get_current.parameters, { wrapped: { type: "object" } });
 * ```
 */
export interface WebtoolsToAiToolsOptions<TParameters = JsonSchema> {
  /**
   * Wraps each action's request schema for the SDK (pass its `jsonSchema`, from `ai`). Default: the raw JSON
   * Schema.
   */
  parameters?: (schema: JsonSchema, action: string) => TParameters;
  /**
   * Only these actions become tools, each of which the metadata must list. Default: every action but the `redeem`
   * system action, which the call handles.
   */
  actions?: readonly string[];
}

/**
 * Turns Webtools metadata into AI SDK tool definitions, one per action, keyed by action name.
 *
 * @param metadata The metadata (check it with `checkPin()` first when the version is pinned).
 * @param call Runs an action and resolves with its data: a function, or a client (`client.call`).
 * @param options How each request schema is wrapped for the SDK, and which actions become tools.
 * @returns The tools, for `generateText({ tools })` / `streamText({ tools })`: `{ description, parameters,
 *   execute }` per action, `execute` running it with the model's arguments (the AI SDK's `abortSignal` aborts it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { webtoolsToAiTools } from "./webtools-ai.ts";
 *
 * const metadata = {
 *   name: "weather", description: "Weather", version: "1.0.0", configSchema: {}, defaultConfig: {},
 *   actions: [{ name: "get_current", description: "Current weather", requestSchema: { type: "object" }, responseSchema: {} }],
 * };
 * const tools = webtoolsToAiTools(metadata, async (action, request) => ({ action, request }));
 * assert.equal(tools.get_current.description, "Current weather");
 * assert.deepEqual(await tools.get_current.execute({ location: "Paris" }), {
 *   action: "get_current",
 *   request: { location: "Paris" },
 * });
 * ```
 */
export function webtoolsToAiTools<TParameters = JsonSchema>(
  metadata: WebtoolsMetadata,
  call:
    | ((action: string, request: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>)
    | { call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown> },
  options: WebtoolsToAiToolsOptions<TParameters> = {},
): Record<string, {
  description: string;
  parameters: TParameters;
  execute: (args: Record<string, unknown>, options?: { abortSignal?: AbortSignal }) => Promise<unknown>;
}> {
  const run: WebtoolsCall = typeof call === "function"
    ? call
    : (action, request, signal) => call.call(action, request, signal === undefined ? undefined : { signal });
  const wrap = options.parameters ?? ((schema: JsonSchema) => schema as TParameters);
  const wanted = options.actions === undefined ? undefined : new Set(options.actions);
  const tools: Record<string, AiTool<TParameters>> = {};
  for (const action of metadata.actions) {
    if (wanted === undefined ? action.name === "redeem" : !wanted.has(action.name)) continue;
    const name = action.name;
    tools[name] = {
      description: action.description || `${metadata.name}: ${name}`,
      parameters: wrap(action.requestSchema, name),
      execute: (args, executeOptions) => run(name, args, executeOptions?.abortSignal),
    };
  }
  if (wanted !== undefined) {
    const missing = [...wanted].filter((name) => !Object.hasOwn(tools, name));
    if (missing.length > 0) throw new TypeError(`webtool ${metadata.name} has no action ${missing.join(", ")}`);
  }
  return tools;
}
