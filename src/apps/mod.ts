/**
 * MCP Apps (SEP-1865, the `io.modelcontextprotocol/ui` extension): interactive views for tools. A view
 * is a `ui://` HTML resource (`defineApp()`); `defineTool(…).ui(app)` attaches it to a tool, and
 * registering the tool registers the view and advertises the extension. Hosts that render apps (and
 * `mcplite app`, the local preview) show it in a sandboxed iframe beside the tool's result; the view
 * itself is written with `connectApp()` from `@mcplite/sdk/apps/view`, typed from `typeof server`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "@mcplite/sdk";
 * import { defineApp } from "@mcplite/sdk/apps";
 *
 * const board = defineApp("ui://scores/board").title("Scores").html("<!doctype html><table id=t></table>");
 * const scores = defineTool("scores")
 *   .describe("The league table")
 *   .output(v.object({ teams: v.array(v.object({ name: v.string(), points: v.number() })) }))
 *   .ui(board)
 *   .handle(() => ({ teams: [{ name: "Ajax", points: 3 }] }));
 * const server = createServer({ name: "league", version: "1.0.0" }).tool(scores);
 * const listed = await server.fetch(new Request("http://localhost/mcp", {
 *   method: "POST",
 *   headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
 *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: {
 *     "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }),
 * }));
 * assert.deepEqual((await listed.json()).result.tools[0]._meta.ui, { resourceUri: "ui://scores/board", visibility: ["model", "app"] });
 * ```
 *
 * @module
 */
import type { CallMeta } from "../core/mod.ts";
import { APP_MIME_TYPE } from "../internal/mcp-apps-wire.ts";

export { AppDefinition } from "./define-app.ts";
export { defineApp } from "../assembly/served-apps.ts";
export type { AppHtml } from "./define-app.ts";
export type { ToolUiOptions, ToolView } from "../core/mod.ts";
export type { AppCsp, AppPermissions, AppResourceMeta, ToolVisibility } from "../internal/mcp-apps-wire.ts";

/**
 * Whether the client renders MCP Apps views (it declared `text/html;profile=mcp-app` under the
 * extension), so that a tool can answer a text-only client differently (SEP-1865, Graceful Degradation).
 *
 * @param meta The call's `ctx.meta`.
 * @returns `true` when the client renders HTML views.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rendersApps } from "./mod.ts";
 * assert.equal(rendersApps({ wire: "mcp", headers: new Headers(), appMimeTypes: ["text/html;profile=mcp-app"] }), true);
 * assert.equal(rendersApps({ wire: "mcp-lite", headers: new Headers() }), false);
 * ```
 */
export function rendersApps(meta: CallMeta): boolean {
  return meta.appMimeTypes?.includes(APP_MIME_TYPE) === true;
}
