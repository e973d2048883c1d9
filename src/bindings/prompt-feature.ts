/**
 * The MCP-lite part of the prompts feature (MCP-lite spec v0.042 §8.1, prompts; specified in the
 * README's MCP-lite section): the MCP-lite HTTP and gRPC bindings find it among the registry's features,
 * so that a server without prompts does not load the code that serves them (`src/core/definitions/feature.ts`).
 *
 * @module
 */
import type {
  AuthInfo,
  describePrompt,
  Feature,
  HandlerOutcome,
  promptResultFromValue,
  Registry,
} from "../core/mod.ts";
import type { PromptCaller } from "./render-prompt.ts";
import { litePart } from "./lite-part.ts";

type PromptDescriptor = ReturnType<typeof describePrompt>;
type PromptResult = ReturnType<typeof promptResultFromValue>;

/** What serves prompts on MCP-lite's wires. */
export interface LitePrompts {
  /**
   * Lists the prompts a caller may get.
   *
   * @param registry The registry.
   * @param auth The caller.
   * @returns The descriptors, with their arguments.
   */
  list(registry: Registry, auth: AuthInfo | undefined): PromptDescriptor[];
  /**
   * Returns the `/prompts` body, `{"prompts":[…]}`, encoded once per change of the prompts (and set of scopes).
   *
   * @param registry The registry.
   * @param auth The caller.
   * @returns The bytes.
   */
  listBytes(registry: Registry, auth: AuthInfo | undefined): Uint8Array<ArrayBuffer>;
  /**
   * Renders a prompt.
   *
   * @param registry The registry.
   * @param name The prompt name, as sent.
   * @param args The arguments, as sent.
   * @param caller The request's params, caller, signal and input round.
   * @returns The result, or the input the request still needs.
   */
  render(registry: Registry, name: unknown, args: unknown, caller: PromptCaller): Promise<HandlerOutcome<PromptResult>>;
}

/** A feature's MCP-lite part. */
export interface LiteFeature extends Feature {
  /** The prompts part. */
  readonly mcplite: { readonly prompts: LitePrompts };
}

/**
 * Finds what serves prompts on MCP-lite, if a registered prompt brought it.
 *
 * @param registry The registry.
 * @returns The prompts part, or `undefined` when the server defines no prompt.
 */
export function litePrompts(registry: Registry): LitePrompts | undefined {
  return litePart<LitePrompts>(registry, "prompts");
}
