/**
 * Completion of a proxied prompt's argument or template's variable: asked of the remote
 * (`completion/complete`, MCP 2025-11-25, Completion), its suggestions answered as they came.
 *
 * @module
 */
import type { Completer } from "../core/definitions/completer.ts";
import { isObject } from "../internal/is-object.ts";
import type { HopOptions } from "./hop-options.ts";
import type { Remote } from "./remote.ts";
import { remoteError } from "./remote-error.ts";

/** What is completed: a prompt (by name) or a resource template (by its URI template). */
export type CompletionRef = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

/**
 * Makes the completer of one argument that asks the remote.
 *
 * @param remote The remote.
 * @param ref The prompt or template.
 * @param argument The argument (or variable) name.
 * @param hop How the second hop goes.
 * @returns The completer.
 */
export function remoteCompleter(remote: Remote, ref: CompletionRef, argument: string, hop: HopOptions): Completer {
  return async (value, context) => {
    const params = { ref, argument: { name: argument, value }, context: { arguments: { ...context.arguments } } };
    let result: Record<string, unknown>;
    try {
      result = await remote.client.request("completion/complete", params, { signal: context.signal });
    } catch (error) {
      remote.failed(error);
      throw remoteError(error, hop.retryAfterMs, hop.name);
    }
    const values = isObject(result.completion) ? result.completion.values : undefined;
    return Array.isArray(values) ? values.filter((v): v is string => typeof v === "string") : [];
  };
}
