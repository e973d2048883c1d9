/**
 * Rendering a prompt for any wire that serves prompts (MCP `prompts/get`, MCP-lite `/prompts/get`, gRPC
 * `GetPrompt`): the lookup, the arguments' check, the request middleware, scopes and input round of
 * `runHandler`, and the handler's value as MCP's `GetPromptResult`.
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";
import {
  type describePrompt,
  type HandlerOutcome,
  promptResultFromValue,
  type Registry,
  runHandler,
  withResultMeta,
} from "../core/mod.ts";
import { isObject } from "../internal/is-object.ts";
import { echoed } from "../internal/echo.ts";

type AnyPrompt = Parameters<typeof describePrompt>[0];
type HandlerRequest = Parameters<typeof runHandler>[1];
type PromptResult = ReturnType<typeof promptResultFromValue>;

/** Who asks for the rendering, as the wire decoded it: everything of a handler request but what is the prompt's. */
export type PromptCaller = Pick<HandlerRequest, "params" | "meta" | "signal" | "sink" | "round" | "host">;

/**
 * Renders a prompt. An unknown prompt, arguments that are not an object, or arguments that fail the
 * prompt's schema (a missing required one, say) are `invalid_params`, with the failing paths in
 * `data`. A prompt with scopes the caller lacks is refused before its arguments are looked at.
 *
 * @param registry The registry.
 * @param name The prompt name, as sent.
 * @param args The arguments, as sent.
 * @param caller The request's params, caller, signal, sink and input round.
 * @returns The result, or the input the request still needs.
 * @throws {ProtocolError} `invalid_params`; `permission_denied` for a missing scope; what middleware threw.
 */
export async function renderPrompt(
  registry: Registry,
  name: unknown,
  args: unknown,
  caller: PromptCaller,
): Promise<HandlerOutcome<PromptResult>> {
  if (typeof name !== "string") throw invalid("name must be a string");
  const find = () => {
    const prompt = registry.prompt(name);
    if (prompt === undefined) throw invalid(`unknown prompt ${echoed(JSON.stringify(name))}`, { prompt: echoed(name) });
    if (args !== undefined && !isObject(args)) throw invalid("arguments must be an object of strings");
    return prompt;
  };
  const rendered = await runHandler(
    registry,
    { method: "prompts/get", name, scope: `prompt:${name}`, arguments: args ?? {}, ...caller },
    find,
    async (prompt, ctx) => {
      const value = await prompt.get(await promptArguments(prompt, args ?? {}), ctx);
      // What the handler set with `ctx.resultMeta()` goes in the result's `_meta`, on every wire.
      return withResultMeta(promptResultFromValue(value, prompt.description), ctx);
    },
  );
  return rendered;
}

async function promptArguments(prompt: AnyPrompt, args: unknown): Promise<unknown> {
  if (prompt.args === undefined) return args;
  const checked = await prompt.args.validate(args);
  if (!checked.ok) {
    const detail = checked.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
    throw invalid(`arguments of prompt ${prompt.name}: ${detail}`, { prompt: prompt.name, issues: checked.issues });
  }
  return checked.value;
}

function invalid(message: string, data?: unknown): ProtocolError {
  return new ProtocolError("invalid_params", `Invalid params: ${message}`, { data });
}
