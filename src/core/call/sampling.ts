/**
 * Sampling's shapes (MCP 2025-11-25, Client Features, Sampling), with tool use (SEP-1577): the server
 * offers the model `tools`, the model answers with `tool_use` blocks, and the server runs them and sends
 * `tool_result` blocks back in the next `sampling/createMessage`. Carried unchanged by every wire.
 *
 * @module
 */
import type { AudioContent, ContentBlock, ImageContent, TextContent } from "../results/result.ts";

/** The model asks to call a tool (an assistant message's block; `stopReason: "toolUse"`). */
export interface ToolUseContent {
  /** The block type. */
  type: "tool_use";
  /** The call's id, which its `tool_result` names in `toolUseId`. */
  id: string;
  /** The tool's name, one of the request's `tools`. */
  name: string;
  /** The arguments, matching the tool's `inputSchema`. */
  input: Record<string, unknown>;
  /** Metadata to send back unchanged with the next request. */
  _meta?: Record<string, unknown>;
}

/** The result of a tool the model called (a user message's block, and that message's only kind). */
export interface ToolResultContent {
  /** The block type. */
  type: "tool_result";
  /** The `id` of the `tool_use` it answers. */
  toolUseId: string;
  /** What the tool returned. */
  content: ContentBlock[];
  /** The tool's structured result, if it has one. */
  structuredContent?: Record<string, unknown>;
  /** Whether the tool failed. */
  isError?: boolean;
  /** Free-form metadata. */
  _meta?: Record<string, unknown>;
}

/** A block of a sampling message. */
export type SamplingContent = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

/** One message of the conversation to sample from. */
export interface SamplingMessage {
  /** Who says it. */
  role: "user" | "assistant";
  /** One block or several. */
  content: SamplingContent | SamplingContent[];
  /** Free-form metadata. */
  _meta?: Record<string, unknown>;
}

/** A tool the model may call while sampling (MCP's `Tool`: a name and a JSON Schema of its input). */
export interface SamplingTool {
  /** The tool's name. */
  name: string;
  /** What it does, for the model. */
  description?: string;
  /** The JSON Schema of its arguments, an object schema. */
  inputSchema: { type: "object"; [key: string]: unknown };
  /** A human-readable title. */
  title?: string;
  /** The JSON Schema of its structured result. */
  outputSchema?: { type: "object"; [key: string]: unknown };
  /** Free-form metadata. */
  _meta?: Record<string, unknown>;
}

/** Whether the model may, must, or must not call a tool (MCP 2025-11-25, `ToolChoice`). */
export interface ToolChoice {
  /** `auto` (the default): the model decides; `required`: it must call one; `none`: it must not. */
  mode?: "auto" | "required" | "none";
}

/** The params of `sampling/createMessage`. */
export interface SampleParams {
  /** The conversation so far. */
  messages: SamplingMessage[];
  /** The most tokens to sample. */
  maxTokens: number;
  /** A system prompt the client may use. */
  systemPrompt?: string;
  /** Hints and priorities for choosing a model. */
  modelPreferences?: {
    hints?: { name?: string }[];
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  /** Context from MCP servers to include (soft-deprecated: ask only if the client declared `sampling.context`). */
  includeContext?: "none" | "thisServer" | "allServers";
  /** The sampling temperature. */
  temperature?: number;
  /** Sequences that stop sampling. */
  stopSequences?: string[];
  /** Provider-specific metadata. */
  metadata?: Record<string, unknown>;
  /** Tools the model may call; asked only of a client that declared `sampling: { tools: {} }`. */
  tools?: SamplingTool[];
  /** Whether the model may, must or must not call one of the `tools`. */
  toolChoice?: ToolChoice;
  /** Free-form metadata. */
  _meta?: Record<string, unknown>;
}

/** MCP's `CreateMessageResult`: the sampled message. */
export interface CreateMessageResult {
  /** The role, normally `assistant`. */
  role: "user" | "assistant";
  /** The content: text, media, or `tool_use` blocks when the model calls tools. */
  content: SamplingContent | SamplingContent[];
  /** The model that answered. */
  model: string;
  /** Why sampling stopped: `toolUse` when the content holds `tool_use` blocks. */
  stopReason?: "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | (string & Record<never, never>);
  /** Free-form metadata. */
  _meta?: Record<string, unknown>;
}
