/**
 * The call-by-name tool of tool search: calls a tool the search found, by its name and arguments,
 * through the server's one call pipeline, so the call meets the same middleware, telemetry, scopes,
 * validation and errors as a direct `tools/call` of that tool.
 *
 * @module
 */
import * as v from "valibot";
import { type CallContext } from "../core/call/call-context.ts";
import { budgetCallerOf, waitUntilOf } from "../core/call/tool-call-context.ts";
import { ProtocolError } from "../errors/error.ts";
import { runCall } from "../core/call/pipeline.ts";
import type { Registry } from "../core/definitions/registry.ts";
import { toolResult } from "../core/results/result.ts";
import type { Tool } from "../core/definitions/tool.ts";
import { echoed } from "../internal/echo.ts";
import { visibleTo } from "../internal/mcp-apps-wire.ts";
import { defineTool } from "../tool/define-tool.ts";
import { servedPrefix } from "./served-namespace.ts";
import type { ToolCatalog } from "./tool-catalog.ts";

/** What the call tool takes (built when the tool is, as the search tool's input). */
const callInput = () =>
  v.object({
    name: v.pipe(v.string(), v.description("The tool's name, as the search answered it")),
    arguments: v.optional(
      v.pipe(v.record(v.string(), v.unknown()), v.description("The tool's arguments, as its input schema describes")),
    ),
  });

/** The names the call tool knows: its own and the search tool's, which it does not call. */
export interface CallToolSettings {
  /** Its name. */
  readonly name: string;
  /** The search tool's name. */
  readonly searchTool: string;
}

/**
 * Builds the call tool of a registry.
 *
 * @param registry The server's definitions.
 * @param catalog The search, for the names an unknown one suggests.
 * @param settings Its name and the search tool's.
 * @returns The tool.
 */
export function callToolTool(
  registry: Registry,
  catalog: ToolCatalog,
  settings: CallToolSettings,
  // deno-lint-ignore no-explicit-any
): Tool<string, any, any, any> {
  return defineTool(settings.name)
    .describe(
      `Calls a tool that ${settings.searchTool} found, by its name, with its arguments. Answers what the ` +
        `tool answers.`,
    )
    .input(callInput())
    .annotations({ openWorldHint: true })
    .handle(async ({ name: asked, arguments: args }, ctx) => {
      // A found name is the caller's server's (`crm.sendMail` through `server.group("crm", …)`): ours without it.
      const prefix = servedPrefix(ctx.tool, settings.name);
      const name = prefix !== "" && asked.startsWith(prefix) ? asked.slice(prefix.length) : asked;
      // The model calls: a tool only a view may call (SEP-1865, Visibility) is unknown to it, as the
      // search never finds it.
      const tool = name === settings.name ? undefined : registry.get(name);
      if (tool === undefined || !visibleTo(tool.meta, "model")) throw await unknown(asked, name, prefix, catalog, ctx);
      const outcome = await runCall(registry, {
        name,
        arguments: args ?? {},
        meta: ctx.meta,
        signal: ctx.signal,
        // The request's `waitUntil` (a Worker's): deferred work the found tool starts outlives the answer.
        host: { env: ctx.env, waitUntil: waitUntilOf(ctx), auth: ctx.auth, caller: budgetCallerOf(ctx) },
        sink: {
          progress: (progress, total, message) => ctx.progress(progress, total, message),
          log: (level, data, logger) => ctx.log(level, data, logger),
        },
      });
      switch (outcome.kind) {
        case "answer":
        case "failure":
          return toolResult(outcome.result);
        case "promise":
          return toolResult({
            content: [{
              type: "text",
              text: `"${asked}" is still running: redeem ${outcome.token} with the redeem tool`,
            }],
            structuredContent: { promise: outcome.token },
          });
        default:
          // MCP-lite spec v0.042 §3.3: the question is tied to the tool that asked; only a direct call can answer it.
          throw new ProtocolError(
            "invalid_params",
            `"${asked}" needs input from the client: call it directly (tools/call "${asked}")`,
          );
      }
    });
}

/**
 * The error of an unknown name (or the call tool's own): `unknown_tool`, suggesting what the search finds for it
 * (`ours`: without the prefix it is served under), named as the caller's server serves them (`prefix`).
 */
async function unknown(
  name: string,
  ours: string,
  prefix: string,
  catalog: ToolCatalog,
  ctx: CallContext,
): Promise<ProtocolError> {
  const found = await catalog.search(ours, 5, ctx.auth);
  return new ProtocolError("unknown_tool", `Tool not found: ${echoed(name)}`, {
    data: { requested_tool: echoed(name), suggestions: found.map((tool) => prefix + tool.name) },
  });
}
