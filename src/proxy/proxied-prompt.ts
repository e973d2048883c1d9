/**
 * A remote prompt as a prompt of ours: its arguments listed as the remote lists them (strings, MCP
 * 2025-11-25, Prompts), got from the remote, each argument completed by the remote.
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import type { AnyPrompt, PromptResult } from "../core/definitions/prompt.ts";
import { definePrompt } from "../assembly/served-prompts.ts";
import type { HopOptions } from "./hop-options.ts";
import type { Remote } from "./remote.ts";
import { remoteCompleter } from "./remote-completer.ts";
import { forwardRead } from "./forward-read.ts";
import { servableIcons } from "./remote-icons.ts";

/** A prompt argument as `prompts/list` gives it. */
interface ListedArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/**
 * Defines the prompt that forwards one remote prompt.
 *
 * @param listed The prompt as the remote lists it.
 * @param remote The remote.
 * @param hop How the second hop goes.
 * @param completes Whether the remote declared completions.
 * @returns The prompt.
 * @throws {TypeError} When its name or arguments are not ones a prompt of ours can have.
 */
export function proxiedPrompt(
  listed: Record<string, unknown>,
  remote: Remote,
  hop: HopOptions,
  completes: boolean,
): AnyPrompt {
  const name = String(listed.name);
  const args = (Array.isArray(listed.arguments) ? listed.arguments : []) as ListedArgument[];
  const properties = Object.fromEntries(args.map((a) => [a.name, {
    type: "string",
    ...(a.title === undefined ? {} : { title: a.title }),
    ...(a.description === undefined ? {} : { description: a.description }),
  }]));
  const required = args.filter((a) => a.required === true).map((a) => a.name);
  // deno-lint-ignore no-explicit-any
  let builder: any = definePrompt(name);
  if (args.length > 0) builder = builder.args({ type: "object", properties, ...(required.length ? { required } : {}) });
  if (typeof listed.title === "string") builder = builder.title(listed.title);
  if (typeof listed.description === "string") builder = builder.describe(listed.description);
  if (typeof listed._meta === "object" && listed._meta !== null) builder = builder.meta(listed._meta);
  const icons = servableIcons(listed.icons);
  if (icons !== undefined) builder = builder.icons(icons);
  if (completes) {
    for (const a of args) {
      builder = builder.complete(a.name, remoteCompleter(remote, { type: "ref/prompt", name }, a.name, hop));
    }
  }
  return builder.get(async (given: Record<string, string>, ctx: CallContext) => {
    const got = await forwardRead(ctx, remote, hop, (client, options) => client.getPrompt(name, given ?? {}, options));
    const messages = (Array.isArray(got.messages) ? got.messages : []) as PromptResult["messages"];
    return typeof got.description === "string" ? { description: got.description, messages } : { messages };
  });
}
