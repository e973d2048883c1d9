/**
 * `defineApp()`: an MCP App's view (SEP-1865, UI Resource Format): a `ui://` HTML resource served as
 * `text/html;profile=mcp-app`, with the CSP origins, permissions, domain and border preference a host
 * sandboxes it with. Attach it to tools with `defineTool(…).ui(app)`; registering one of them
 * registers the view, which requires the scopes of the tools registered with it unless it has its own
 * (`.scopes()`).
 *
 * @module
 */
import {
  type AnyResource,
  type CallContext,
  type Extension,
  type Feature,
  scoping,
  type ToolUiOptions,
  type ToolView,
} from "../core/mod.ts";
import { resourceBuilder } from "../resource/define-resource.ts";
import {
  APP_MIME_TYPE,
  type AppCsp,
  type AppPermissions,
  type AppResourceMeta,
  LEGACY_RESOURCE_URI_KEY,
  type ToolVisibility,
} from "../internal/mcp-apps-wire.ts";

/** The view's HTML: a complete HTML5 document, or a function that makes it (on each read). */
export type AppHtml = string | ((ctx: CallContext) => string | Promise<string>);

/** What serves a view: the MCP Apps extension, and the `resources/*` methods for its resource. */
export interface AppServedBy {
  /** The extensions the view needs (MCP Apps, whose settings the capabilities carry). */
  readonly view: readonly Extension[];
  /** The features its resource brings (the `resources/*` methods). */
  readonly resource: readonly Feature[];
}

interface AppState {
  readonly uri: string;
  readonly title?: string;
  readonly description?: string;
  readonly html?: AppHtml;
  readonly ui: AppResourceMeta;
  readonly scopes?: readonly string[];
  readonly servedBy: AppServedBy;
}

const VISIBILITIES: readonly ToolVisibility[] = ["model", "app"];
const CSP_KEYS: readonly (keyof AppCsp)[] = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"];
const PERMISSIONS: readonly (keyof AppPermissions)[] = ["camera", "microphone", "geolocation", "clipboardWrite"];

/**
 * An MCP App's view, as `defineApp()` builds it. Every method returns a new definition; one definition
 * attached to several tools is registered once.
 */
export class AppDefinition implements ToolView {
  readonly #state: AppState;
  #resource: AnyResource | undefined;

  /**
   * Creates a definition; use {@link defineApp} instead.
   *
   * @param state The definition so far.
   */
  constructor(state: AppState) {
    this.#state = Object.freeze(state);
  }

  #with(patch: Partial<AppState>): AppDefinition {
    return new AppDefinition({ ...this.#state, ...patch });
  }

  /** The view's `ui://` URI. */
  get uri(): string {
    return this.#state.uri;
  }

  /** The `_meta.ui` its resource carries: CSP, permissions, domain, border preference. */
  get meta(): AppResourceMeta {
    return this.#state.ui;
  }

  /** The extensions serving the view needs: MCP Apps (`io.modelcontextprotocol/ui`), served with its tools. */
  get extensions(): readonly Extension[] {
    return this.#state.servedBy.view;
  }

  /**
   * The resource that serves the view (built once per definition).
   *
   * @throws {TypeError} When the view has no `.html()`.
   */
  get resource(): AnyResource {
    return this.#resource ??= this.#build();
  }

  /**
   * The `_meta` a tool shown in this view is listed with (`.ui()` calls it): `ui: { resourceUri,
   * visibility }` and the flat `ui/resourceUri` older hosts read (SEP-1865, Resource Discovery).
   *
   * @param tool The tool's name, for errors.
   * @param options Who may call the tool (default `["model", "app"]`).
   * @returns The metadata.
   * @throws {TypeError} For an empty or unknown visibility, or a view without `.html()`.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { defineApp } from "../assembly/served-apps.ts";
   * const meta = defineApp("ui://a/b").html("<p>b</p>").toolMeta("refresh", { visibility: ["app"] });
   * assert.deepEqual(meta, { ui: { resourceUri: "ui://a/b", visibility: ["app"] }, "ui/resourceUri": "ui://a/b" });
   * ```
   */
  toolMeta(tool: string, options: ToolUiOptions): Record<string, unknown> {
    const visibility = options.visibility ?? VISIBILITIES;
    if (visibility.length === 0 || visibility.some((who) => !VISIBILITIES.includes(who))) {
      throw new TypeError(`tool "${tool}": visibility lists "model", "app" or both`);
    }
    void this.resource; // a view without HTML fails where it is attached, not when a host reads it
    return { ui: { resourceUri: this.uri, visibility: [...new Set(visibility)] }, [LEGACY_RESOURCE_URI_KEY]: this.uri };
  }

  /**
   * Sets the title hosts show for the view.
   *
   * @param title The title.
   * @returns A new definition.
   */
  title(title: string): AppDefinition {
    return this.#with({ title });
  }

  /**
   * Sets what the view shows.
   *
   * @param description The description.
   * @returns A new definition.
   */
  describe(description: string): AppDefinition {
    return this.#with({ description });
  }

  /**
   * Sets the view's HTML: a complete document with its scripts and styles inline (the default CSP
   * loads nothing else), or a function that makes it on each read.
   *
   * @param html The document, or a function returning it.
   * @returns A new definition.
   * @throws {TypeError} When it is neither a string nor a function.
   */
  html(html: AppHtml): AppDefinition {
    if (typeof html !== "string" && typeof html !== "function") {
      throw new TypeError(`app ${this.#state.uri}: .html() takes a string or a function`);
    }
    return this.#with({ html });
  }

  /**
   * Declares the origins the view may reach; the host builds its Content Security Policy from them and
   * blocks every other (SEP-1865, Content Security Policy Enforcement). Calls add to what was declared.
   *
   * @param csp Origins for `fetch`/WebSocket (`connectDomains`), scripts, styles, images and fonts
   *   (`resourceDomains`), nested frames (`frameDomains`) and `<base>` (`baseUriDomains`).
   * @returns A new definition.
   * @throws {TypeError} For an origin that is not a string without spaces or `;`.
   */
  csp(csp: AppCsp): AppDefinition {
    const merged: AppCsp = { ...this.#state.ui.csp };
    for (const key of CSP_KEYS) {
      const origins = csp[key];
      if (origins === undefined) continue;
      for (const origin of origins) {
        // An origin with a space or `;` would add directives of its own to the host's policy.
        if (typeof origin !== "string" || origin === "" || /[\s;,]/.test(origin)) {
          throw new TypeError(`app ${this.#state.uri}: ${key} holds ${JSON.stringify(origin)}, not an origin`);
        }
      }
      merged[key] = [...new Set([...(merged[key] ?? []), ...origins])];
    }
    return this.#with({ ui: { ...this.#state.ui, csp: merged } });
  }

  /**
   * Asks for browser capabilities; a host may grant them in the iframe's `allow` attribute. Views
   * should still detect them, as hosts may refuse.
   *
   * @param permissions `camera`, `microphone`, `geolocation`, `clipboardWrite`: `true` to ask.
   * @returns A new definition.
   */
  permissions(permissions: { [K in keyof AppPermissions]?: boolean }): AppDefinition {
    const asked: AppPermissions = { ...this.#state.ui.permissions };
    for (const key of PERMISSIONS) {
      if (permissions[key] === true) asked[key] = {};
      else if (permissions[key] === false) delete asked[key];
    }
    return this.#with({ ui: { ...this.#state.ui, permissions: asked } });
  }

  /**
   * Asks for a dedicated sandbox origin, in the format the host documents (e.g. a hash subdomain).
   *
   * @param domain The domain.
   * @returns A new definition.
   */
  domain(domain: string): AppDefinition {
    return this.#with({ ui: { ...this.#state.ui, domain } });
  }

  /**
   * Says whether the host should draw a border and background around the view (hosts' defaults vary).
   *
   * @param prefers `true` (the default) for a border, `false` for none.
   * @returns A new definition.
   */
  prefersBorder(prefers = true): AppDefinition {
    return this.#with({ ui: { ...this.#state.ui, prefersBorder: prefers } });
  }

  /**
   * Requires OAuth scopes to list and read the view (MCP 2025-11-25, Authorization, Scope Challenge
   * Handling), in place of those it inherits. Without `.scopes()`, a view requires the scopes of every
   * tool registered with it (the union): it shows what they return, and the server cannot tell which
   * tool's result a host renders in it. A view shared by tools of different audiences says here who
   * may read it; `.scopes()` with no scope makes it readable by every caller. A caller without them
   * gets 403 with the step-up challenge on `resources/read`, and does not see it in `resources/list`.
   *
   * @param scopes The scopes, all required.
   * @returns A new definition.
   * @throws {TypeError} For a malformed scope (RFC 6749 §3.3).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { defineTool } from "../tool/define-tool.ts";
   * import { defineApp } from "../assembly/served-apps.ts";
   *
   * // Shown by a public tool and an admin tool: readers may see the board; its admin actions stay scoped.
   * const board = defineApp("ui://docs/board").scopes("docs:read").html("<!doctype html><p>Board</p>");
   * const show = defineTool("show_board").scopes("docs:read").ui(board).handle(() => "shown");
   * const purge = defineTool("purge").scopes("docs:admin").ui(board, { visibility: ["app"] }).handle(() => "purged");
   * assert.deepEqual(board.resource.scopes, ["docs:read"]);
   * assert.deepEqual([show.scopes, purge.scopes], [["docs:read"], ["docs:admin"]]);
   * ```
   */
  scopes(...scopes: string[]): AppDefinition {
    return this.#with({ scopes: scoping.check([...(this.#state.scopes ?? []), ...scopes], `app ${this.#state.uri}`) });
  }

  #build(): AnyResource {
    const { uri, title, description, html, ui, scopes } = this.#state;
    if (html === undefined) throw new TypeError(`app ${uri}: give the view its HTML with .html()`);
    const meta = Object.keys(ui).length === 0 ? undefined : { ui };
    let builder = resourceBuilder(uri, this.#state.servedBy.resource).name(uri.slice("ui://".length)).mimeType(
      APP_MIME_TYPE,
    );
    if (title !== undefined) builder = builder.title(title);
    if (description !== undefined) builder = builder.describe(description);
    if (meta !== undefined) builder = builder.meta(meta);
    if (scopes !== undefined) builder = builder.scopes(...scopes);
    return builder.read(async (_vars, ctx) => {
      const text = typeof html === "string" ? html : await html(ctx);
      return meta === undefined ? { text } : { text, _meta: meta };
    });
  }
}

/**
 * Starts an MCP App's view served by `servedBy`: the wire-free builder behind the public `defineApp()`
 * (`src/assembly/served-apps.ts`), which names the bindings' features that serve views.
 *
 * @param uri The view's URI: `ui://` and a path, e.g. `ui://weather/forecast`.
 * @param servedBy The features that serve the view and its resource (`src/core/definitions/feature.ts`).
 * @returns The definition; give it `.html()` before attaching it.
 * @throws {TypeError} For a URI that does not start with `ui://` or has nothing after it.
 */
export function appBuilder(uri: string, servedBy: AppServedBy): AppDefinition {
  if (typeof uri !== "string" || !/^ui:\/\/[^\s]+$/.test(uri)) {
    throw new TypeError(`defineApp(${JSON.stringify(uri)}): a view's URI is ui:// and a path (ui://weather/forecast)`);
  }
  return new AppDefinition({ uri, ui: {}, servedBy });
}
