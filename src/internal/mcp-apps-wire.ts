/**
 * MCP Apps wire facts (SEP-1865, the `io.modelcontextprotocol/ui` extension, 2026-01-26) that the
 * server, the view and the preview host share; kept apart from `mcp-wire.ts` so that the view's bundle
 * carries nothing else.
 *
 * @module
 */

/** The extension's identifier, under `capabilities.extensions` (SEP-1865, Extension Identifier). */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";

/** The MIME type of an app's HTML resource (SEP-1865, UI Resource Format). */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** The flat `_meta` key older hosts read instead of `_meta.ui.resourceUri` (SEP-1865, Resource Discovery). */
export const LEGACY_RESOURCE_URI_KEY = "ui/resourceUri";

/** The revision of the view ↔ host protocol spoken in `ui/initialize`. */
export const UI_PROTOCOL_VERSION = "2026-01-26";

/** Who may call a tool: the model, the app's view, or both (SEP-1865, Visibility). */
export type ToolVisibility = "model" | "app";

/**
 * Tells whether a tool is for `who`, from the `_meta` it is listed with: its `ui.visibility` names it,
 * or it has none (SEP-1865, Visibility: `["model", "app"]` by default). The one predicate of every path
 * that lists or calls tools for the model (tool search) or for a view (the preview host).
 *
 * @param meta The tool's `_meta` (a listed tool's, or a definition's `meta`).
 * @param who The model or the app's view.
 * @returns Whether it may see and call the tool.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { visibleTo } from "./mcp-apps-wire.ts";
 * assert.equal(visibleTo({ ui: { resourceUri: "ui://a/b", visibility: ["app"] } }, "model"), false);
 * assert.equal(visibleTo(undefined, "model"), true);
 * ```
 */
export function visibleTo(meta: unknown, who: ToolVisibility): boolean {
  const ui = typeof meta === "object" && meta !== null ? (meta as { ui?: unknown }).ui : undefined;
  const visibility = typeof ui === "object" && ui !== null ? (ui as { visibility?: unknown }).visibility : undefined;
  return !Array.isArray(visibility) || visibility.includes(who);
}

/** The origins a view may reach, each mapped to CSP directives by the host (SEP-1865, UI Resource Format). */
export interface AppCsp {
  /** Origins for `fetch`, XHR and WebSocket (`connect-src`). */
  connectDomains?: string[];
  /** Origins for scripts, styles, images, fonts and media. */
  resourceDomains?: string[];
  /** Origins for nested iframes (`frame-src`). */
  frameDomains?: string[];
  /** Allowed base URIs (`base-uri`). */
  baseUriDomains?: string[];
}

/** Browser capabilities a view asks for; the host may grant them in the iframe's `allow` attribute. */
export interface AppPermissions {
  /** The camera. */
  camera?: Record<string, never>;
  /** The microphone. */
  microphone?: Record<string, never>;
  /** Geolocation. */
  geolocation?: Record<string, never>;
  /** Writing to the clipboard. */
  clipboardWrite?: Record<string, never>;
}

/** The `_meta.ui` of an app's resource: how the host sandboxes and frames it. */
export interface AppResourceMeta {
  /** The origins it may reach. */
  csp?: AppCsp;
  /** The capabilities it asks for. */
  permissions?: AppPermissions;
  /** A dedicated sandbox origin, in the host's own format. */
  domain?: string;
  /** Whether the host should draw a border and background around it. */
  prefersBorder?: boolean;
}

/**
 * The content types a client renders as MCP Apps: the `mimeTypes` it declared under the extension
 * (SEP-1865, Client<>Server Capability Negotiation).
 *
 * @param capabilities The client's capabilities, if known.
 * @returns The types, or `undefined` when it declared none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appMimeTypesOf } from "./mcp-apps-wire.ts";
 * const capabilities = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
 * assert.deepEqual(appMimeTypesOf(capabilities), ["text/html;profile=mcp-app"]);
 * assert.equal(appMimeTypesOf({}), undefined);
 * ```
 */
export function appMimeTypesOf(capabilities: Record<string, unknown> | undefined): readonly string[] | undefined {
  const extensions = capabilities?.extensions as Record<string, { mimeTypes?: unknown } | undefined> | undefined;
  const types = extensions?.[UI_EXTENSION]?.mimeTypes;
  return Array.isArray(types) ? types.filter((type): type is string => typeof type === "string") : undefined;
}
