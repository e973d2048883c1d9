/**
 * The finished prompt definition that `definePrompt()` produces, how it is listed, and how what its
 * handler returns becomes MCP `messages`.
 *
 * @module
 */
import type { CallContext } from "../call/call-context.ts";
import type { ContentBlock } from "../results/result.ts";
import type { Icon } from "./icon.ts";
import type { Completer } from "./completer.ts";
import type { CompiledSchema } from "../schema.ts";

/** One message of a prompt, as MCP's `PromptMessage`. */
export interface PromptMessage {
  /** The speaker: `"user"` or `"assistant"`. */
  role: "user" | "assistant";
  /** The content: one content block. */
  content: ContentBlock;
}

/** A message as a handler may write it: a string content is a text block. */
export interface PromptMessageInput {
  /** The speaker: `"user"` or `"assistant"`. */
  role: "user" | "assistant";
  /** A content block, or a string for a text block. */
  content: ContentBlock | string;
}

/** MCP's `GetPromptResult`. */
export interface PromptResult {
  /** A description of this rendering. */
  description?: string;
  /** The messages. */
  messages: PromptMessage[];
  /** Free-form metadata. */
  _meta?: Record<string, unknown>;
}

/**
 * What a prompt handler may return: a string (one user message), a message, a list of messages, or a
 * complete result with a description.
 */
export type PromptReturn =
  | string
  | PromptMessageInput
  | PromptMessageInput[]
  | { description?: string; messages: PromptMessageInput[]; _meta?: Record<string, unknown> };

/**
 * Renders a prompt.
 *
 * @param args The validated arguments.
 * @param ctx The call context.
 */
export type PromptHandler<TArgs> = (args: TArgs, ctx: CallContext) => PromptReturn | Promise<PromptReturn>;

/** One argument as `prompts/list` shows it. */
export interface PromptArgument {
  /** The argument name. */
  name: string;
  /** A human-readable title. */
  title?: string;
  /** What the argument means. */
  description?: string;
  /** Whether it must be given. */
  required?: boolean;
}

/** A finished prompt, ready for `server.prompt()`. */
export interface Prompt<TName extends string = string, TInput = unknown, TArgs = unknown> {
  /** What the definition brings to the wires that serve it (e.g. the MCP methods that serve resources), read by each binding; opaque to you. */
  readonly features?: readonly Readonly<Record<string, unknown>>[];
  /** The prompt name. */
  readonly name: TName;
  /** A human-readable title. */
  readonly title: string | undefined;
  /** What the prompt is for. */
  readonly description: string | undefined;
  /** The arguments as listed. */
  readonly arguments: readonly PromptArgument[];
  /** The argument schema, compiled; `undefined` when the prompt takes none. */
  readonly args: CompiledSchema | undefined;
  /** Completers for arguments. */
  readonly completers: ReadonlyMap<string, Completer> | undefined;
  /** Free-form metadata listed as `_meta`. */
  readonly meta: Record<string, unknown> | undefined;
  /** The icons a client may show for it (`.icons()`), checked. */
  readonly icons?: readonly Icon[];
  /** The OAuth scopes a caller must hold to see, get and complete it (`.scopes()`), if any. */
  readonly scopes?: readonly string[];
  /** The handler. */
  readonly get: PromptHandler<unknown>;
  /** Phantom types for inference, never present at run time: what the caller sends, what the handler receives. */
  readonly "~types"?: { readonly input: TInput; readonly args: TArgs };
}

/** Any prompt. */
// deno-lint-ignore no-explicit-any
export type AnyPrompt = Prompt<string, any, any>;

/** A prompt as `prompts/list` shows it. */
export interface PromptDescriptor {
  /** The name. */
  name: string;
  /** The title. */
  title?: string;
  /** The description. */
  description?: string;
  /** The arguments. */
  arguments?: PromptArgument[];
  /** Icons (MCP 2025-11-25, `Icon`). */
  icons?: readonly Icon[];
  /** The metadata. */
  _meta?: Record<string, unknown>;
}

/**
 * Describes a prompt as `prompts/list` shows it. Runs once per prompt, when the list body is built.
 *
 * @param prompt The prompt.
 * @returns The descriptor.
 */
export function describePrompt(prompt: AnyPrompt): PromptDescriptor {
  const d: PromptDescriptor = { name: prompt.name };
  if (prompt.title !== undefined) d.title = prompt.title;
  if (prompt.description !== undefined) d.description = prompt.description;
  if (prompt.arguments.length > 0) d.arguments = prompt.arguments.map((a) => ({ ...a }));
  if (prompt.icons !== undefined) d.icons = prompt.icons;
  if (prompt.meta !== undefined) d._meta = prompt.meta;
  return d;
}

/**
 * Turns what a prompt handler returned into MCP's `GetPromptResult`.
 *
 * @param value The handler's return value.
 * @param description The prompt's description, used when the handler gives none.
 * @returns The result.
 * @throws {TypeError} When a message has no valid role or content.
 */
export function promptResultFromValue(value: PromptReturn, description: string | undefined): PromptResult {
  let result: PromptResult;
  if (typeof value === "string") {
    result = { messages: [{ role: "user", content: { type: "text", text: value } }] };
  } else if (Array.isArray(value)) {
    result = { messages: value.map(toMessage) };
  } else if (typeof value === "object" && value !== null && "messages" in value) {
    result = { messages: value.messages.map(toMessage) };
    if (value.description !== undefined) result.description = value.description;
    if (value._meta !== undefined) result._meta = value._meta;
  } else {
    result = { messages: [toMessage(value as PromptMessageInput)] };
  }
  if (result.description === undefined && description !== undefined) result.description = description;
  return result;
}

function toMessage(message: PromptMessageInput): PromptMessage {
  if (typeof message !== "object" || message === null || (message.role !== "user" && message.role !== "assistant")) {
    throw new TypeError('a prompt message needs role "user" or "assistant"');
  }
  const content = message.content;
  if (typeof content === "string") return { role: message.role, content: { type: "text", text: content } };
  if (typeof content !== "object" || content === null || typeof content.type !== "string") {
    throw new TypeError("a prompt message needs a content block or a string");
  }
  return { role: message.role, content };
}

const PROMPT_NAME = /^[A-Za-z0-9_./-]{1,128}$/;

/**
 * Checks a prompt name: 1–128 characters of `[A-Za-z0-9_./-]`.
 *
 * @param name The name.
 * @throws {TypeError} When the name is invalid.
 */
export function assertPromptName(name: string): void {
  if (typeof name !== "string" || !PROMPT_NAME.test(name)) {
    throw new TypeError(`invalid prompt name ${JSON.stringify(name)}: use 1-128 characters of A-Z a-z 0-9 _ . / -`);
  }
}
