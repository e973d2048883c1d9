/**
 * The view's types: what the host sends (SEP-1865, Host Context, Notifications) and the typed tool
 * results a view receives and asks for, inferred from `typeof server` (no codegen).
 *
 * @module
 */
import type { ContentBlock } from "../../core/result.ts";
import type { ToolInput, ToolName, ToolOutput, ToolsOf } from "../../client/types.ts";

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

/** The tools of a server type, or any tool for `unknown`. */
export type ViewTools<S> = ToolsOf<S>;

/** The names of a server type's tools. */
export type ViewToolName<S> = ToolName<ToolsOf<S>>;

/** The arguments tool `N` of server `S` takes. */
export type ViewToolInput<S, N extends ViewToolName<S>> = ToolInput<ToolsOf<S>, N>;

/** The structured result tool `N` of server `S` gives. */
export type ViewToolOutput<S, N extends ViewToolName<S>> = ToolOutput<ToolsOf<S>, N>;
