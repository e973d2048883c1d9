/**
 * Answers a completion request: finds the prompt or resource template it refers to and runs the
 * completer of the argument, if it has one.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { type AuthInfo, type Completer, completionResult, type Registry, scoping } from "../../core/mod.ts";
import { findTemplate } from "../resolve-resource.ts";
import { echoed } from "../../internal/echo.ts";

type CompletionResult = ReturnType<typeof completionResult>;

/** What a completion refers to: a prompt by name, or a resource template by its template. */
export type CompletionRef = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

/** A completion request, decoded. */
export interface CompletionRequest {
  /** The prompt or template. */
  readonly ref: CompletionRef;
  /** The argument (or variable) being completed. */
  readonly argument: string;
  /** What the user typed so far. */
  readonly value: string;
  /** The arguments already filled in. */
  readonly arguments: Readonly<Record<string, string>>;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** The authenticated caller: a prompt or template with scopes it lacks is not completed. */
  readonly auth?: AuthInfo;
}

const EMPTY: CompletionResult = /* @__PURE__ */ Object.freeze({
  values: [],
  total: 0,
  hasMore: false,
}) as CompletionResult;

/**
 * Completes an argument. An argument without a completer gets no suggestions. A prompt or template
 * whose scopes the caller lacks is refused as getting or reading it would be: its completer could
 * reveal what it holds.
 *
 * @param registry The prompts and resources.
 * @param request The request.
 * @returns Up to 100 suggestions.
 * @throws {ProtocolError} `invalid_params` for an unknown prompt, template or argument;
 *   `permission_denied` (or `unauthenticated`) for a missing scope.
 */
export async function complete(registry: Registry, request: CompletionRequest): Promise<CompletionResult> {
  let names: readonly string[];
  let completers: ReadonlyMap<string, Completer> | undefined;
  const ref = request.ref;
  if (ref.type === "ref/prompt") {
    const prompt = registry.prompt(ref.name);
    if (prompt === undefined) throw invalid(`Unknown prompt: ${echoed(ref.name)}`);
    scoping.require(prompt.scopes, request.auth, `prompt "${prompt.name}"`);
    names = prompt.arguments.map((a) => a.name);
    completers = prompt.completers;
  } else {
    const template = findTemplate(registry, ref.uri);
    if (template === undefined) throw invalid(`Unknown resource template: ${echoed(ref.uri)}`);
    scoping.require(template.scopes, request.auth, `resource "${template.uri}"`);
    names = template.template!.variables;
    completers = template.completers;
  }
  if (!names.includes(request.argument)) throw invalid(`Unknown argument: ${echoed(request.argument)}`);
  const completer = completers?.get(request.argument);
  if (completer === undefined) return EMPTY;
  const values = await completer(request.value, { arguments: request.arguments, signal: request.signal });
  if (!Array.isArray(values)) {
    throw new TypeError(`the completer for "${request.argument}" must return an array of strings`);
  }
  return completionResult(values);
}

function invalid(message: string): ProtocolError {
  return new ProtocolError("invalid_params", `Invalid params: ${message}`);
}
