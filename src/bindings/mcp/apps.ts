/**
 * The MCP part of an MCP App (SEP-1865): no method of its own (its view is a resource), only the
 * extension's capability, `capabilities.extensions["io.modelcontextprotocol/ui"]`, advertised on
 * 2026-07-28 (`server/discover`) and the 2025 revisions (`initialize`) once a tool with a view is
 * registered.
 *
 * @module
 */
import type { McpFeature } from "./feature-methods.ts";
import { APP_MIME_TYPE, UI_EXTENSION } from "../../internal/mcp-apps-wire.ts";

/** The feature `defineApp()` brings: the extension, with the content types the server's views use. */
export const APPS_ON_MCP: McpFeature = {
  mcp: { modern: {}, legacy: {}, extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } },
};
