/**
 * The view's types: what the host sends (SEP-1865, Host Context, Notifications), the typed tool
 * results a view receives and asks for, inferred from `typeof server` (no codegen), and the connected
 * view `connectApp()` returns with the options it takes.
 *
 * @module
 */
import type { ContentBlock } from "../../core/mod.ts";
import type { ToolInput, ToolName, ToolOutput, ToolsOf } from "../../client/client-types.ts";

/** How the view is displayed. */
export type DisplayMode = "inline" | "fullscreen" | "pip";

/** What the host tells the view about itself (SEP-1865, Host Context in `McpUiInitializeResult`). */
export interface HostContext {
  /** The tool call that opened the view. */
  toolInfo?: { id?: string | number; tool: { name: string; [key: string]: unknown } };
  /** The colour theme. */
  theme?: "light" | "dark";
  /** The host's CSS variables and font CSS. */
  styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } };
  /** How the view is displayed now. */
  displayMode?: DisplayMode;
  /** The display modes the host offers. */
  availableDisplayModes?: DisplayMode[];
  /** The container's size: fixed `height`/`width`, or `maxHeight`/`maxWidth` for a view that sizes itself. */
  containerDimensions?: { height?: number; maxHeight?: number; width?: number; maxWidth?: number };
  /** The user's locale (BCP 47). */
  locale?: string;
  /** The user's time zone (IANA). */
  timeZone?: string;
  /** The host application. */
  userAgent?: string;
  /** The platform. */
  platform?: "web" | "desktop" | "mobile";
  /** Other fields. */
  [key: string]: unknown;
}

/** What the host can do for the view (SEP-1865, Host Capabilities). */
export interface HostCapabilities {
  /** It opens links. */
  openLinks?: Record<string, unknown>;
  /** It carries `tools/call` to the server. */
  serverTools?: { listChanged?: boolean };
  /** It carries `resources/read` to the server. */
  serverResources?: { listChanged?: boolean };
  /** It takes log messages. */
  logging?: Record<string, unknown>;
  /** It takes `ui/update-model-context`. */
  updateModelContext?: Record<string, unknown>;
  /** It takes `ui/message`. */
  message?: Record<string, unknown>;
  /** The sandbox it applied. */
  sandbox?: Record<string, unknown>;
  /** Other capabilities. */
  [key: string]: unknown;
}

/**
 * A tool's result as the view gets it (MCP `CallToolResult`): `structuredContent` typed from the
 * tool's `.output()`.
 *
 * @typeParam TOutput The tool's structured result.
 */
export interface ViewToolResult<TOutput = unknown> {
  /** The content blocks (the text the model reads). */
  content: ContentBlock[];
  /** The structured result (absent when the tool failed or declares no output). */
  structuredContent?: TOutput;
  /** `true` when the tool failed. */
  isError?: boolean;
  /** Metadata. */
  _meta?: Record<string, unknown>;
}

/** The names of a server type's tools. */
export type ViewToolName<S> = ToolName<ToolsOf<S>>;

/** The arguments tool `N` of server `S` takes. */
export type ViewToolInput<S, N extends ViewToolName<S>> = ToolInput<ToolsOf<S>, N>;

/** The structured result tool `N` of server `S` gives. */
export type ViewToolOutput<S, N extends ViewToolName<S>> = ToolOutput<ToolsOf<S>, N>;

/** Options of `connectApp()`. */
export interface ConnectAppOptions {
  /** The view's name, as the host shows it. */
  name: string;
  /** Its version. */
  version: string;
  /** The display modes the view supports (default `["inline"]`). */
  displayModes?: DisplayMode[];
  /** Report the view's size to the host whenever it changes (default `true`). */
  autoResize?: boolean;
  /** How long to wait for the host's answer to `ui/initialize`, in ms (default 10 000). */
  timeoutMs?: number;
  /** The globals to use (tests); default `globalThis`. */
  globals?: unknown;
}

/**
 * A connected view. Handlers registered after a notification arrived still get its latest value
 * (the tool's input and result come once, possibly before the view's code subscribes).
 *
 * @typeParam S The server type (`typeof server`), or `unknown` for an untyped view.
 * @typeParam N The tool whose results the view shows.
 */
export interface ViewApp<S = unknown, N extends ViewToolName<S> = ViewToolName<S>> {
  /** The host's name and version. */
  readonly hostInfo: { name: string; version: string };
  /** What the host can do. */
  readonly hostCapabilities: HostCapabilities;
  /** The host context, with every change merged in. */
  readonly hostContext: HostContext;
  /** Receives the tool's complete arguments (`ui/notifications/tool-input`). */
  onToolInput(handler: (args: ViewToolInput<S, N>) => void): () => void;
  /** Receives arguments while the model is still writing them (best effort; never rely on them). */
  onToolInputPartial(handler: (args: Partial<ViewToolInput<S, N>>) => void): () => void;
  /** Receives the tool's result, `structuredContent` typed from its `.output()`. */
  onToolResult(handler: (result: ViewToolResult<ViewToolOutput<S, N>>) => void): () => void;
  /** Learns that the tool call was cancelled. */
  onToolCancelled(handler: (reason: string | undefined) => void): () => void;
  /** Learns of changes to the host context (already merged into {@link ViewApp.hostContext}). */
  onHostContextChanged(handler: (change: HostContext) => void): () => void;
  /** Runs before the host removes the view; the host waits for the returned promise. */
  onTeardown(handler: () => void | Promise<void>): () => void;
  /**
   * Calls one of the server's tools through the host (a tool with `visibility: ["app"]` included).
   *
   * @param name The tool.
   * @param args Its arguments, typed from its input schema.
   * @returns Its result, typed from its output schema.
   */
  callTool<M extends ViewToolName<S>>(
    name: M,
    args: ViewToolInput<S, M>,
  ): Promise<ViewToolResult<ViewToolOutput<S, M>>>;
  /** Reads one of the server's resources through the host (`resources/read`). */
  readResource(uri: string): Promise<{ contents: Record<string, unknown>[] }>;
  /** Adds a user message to the conversation (`ui/message`). */
  sendMessage(message: string | ContentBlock[]): Promise<void>;
  /** Asks the host to open a link (`ui/open-link`). */
  openLink(url: string): Promise<void>;
  /** Replaces what the view tells the model for its next turns (`ui/update-model-context`). */
  updateModelContext(context: { content?: ContentBlock[]; structuredContent?: Record<string, unknown> }): Promise<void>;
  /** Asks for another display mode; resolves with the one the host chose. */
  requestDisplayMode(mode: DisplayMode): Promise<DisplayMode>;
  /** Sends a log message to the host (`notifications/message`). */
  log(level: "debug" | "info" | "notice" | "warning" | "error", data: unknown): void;
  /** Applies the host's theme, CSS variables and fonts now and on every change. */
  applyHostStyles(): void;
  /** Stops listening and observing. */
  close(): void;
}
