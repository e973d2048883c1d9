/**
 * `defineApp()`, served: the wire-free view builder (`src/apps/`) given what serves views: the MCP Apps
 * extension (SEP-1865), made with the public `defineExtension()` as any extension is, and MCP's
 * `resources/*` methods for the view's resource. The definition declares what it is; this file wires it
 * to what serves it, so a server without views does not load or bundle that code (`src/core/definitions/feature.ts`).
 *
 * @module
 */
import { appBuilder, type AppDefinition, type AppServedBy } from "../apps/define-app.ts";
import { APP_MIME_TYPE, UI_EXTENSION } from "../internal/mcp-apps-wire.ts";
import { defineExtension } from "./served-extensions.ts";
import { RESOURCES_SERVED_BY } from "./served-resources.ts";

/**
 * The MCP Apps extension (SEP-1865): no method of its own (its view is a resource), only its capability,
 * with the content types the server's views use; advertised on every revision once a tool with a view
 * is registered.
 */
const UI = defineExtension(UI_EXTENSION).settings({ mimeTypes: [APP_MIME_TYPE] });

/** What serves a view and its resource. */
const SERVED_BY: AppServedBy = { view: [UI], resource: RESOURCES_SERVED_BY };

/**
 * Starts an MCP App's view: a `ui://` HTML resource a host renders in a sandboxed iframe beside the
 * results of the tools it is attached to (`defineTool(…).ui(app)`).
 *
 * @param uri The view's URI: `ui://` and a path, e.g. `ui://weather/forecast`.
 * @returns The definition; give it `.html()` before attaching it.
 * @throws {TypeError} For a URI that does not start with `ui://` or has nothing after it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineApp } from "./served-apps.ts";
 *
 * const forecast = defineApp("ui://weather/forecast")
 *   .title("Forecast")
 *   .html("<!doctype html><html><body><div id=days></div></body></html>")
 *   .csp({ connectDomains: ["https://api.weather.example"] })
 *   .prefersBorder();
 * assert.equal(forecast.resource.mimeType, "text/html;profile=mcp-app");
 * assert.deepEqual(forecast.meta.csp, { connectDomains: ["https://api.weather.example"] });
 * ```
 */
export function defineApp(uri: string): AppDefinition {
  return appBuilder(uri, SERVED_BY);
}
