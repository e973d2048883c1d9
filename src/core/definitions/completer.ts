/**
 * Argument completion: the function a prompt argument or a resource-template variable declares to
 * suggest values (MCP `completion/complete`), and the shape of its answer.
 *
 * @module
 */

/** The most values one completion answer carries (MCP's limit). */
export const MAX_COMPLETION_VALUES = 100;

/** What a completer knows besides the partial value. */
export interface CompletionContext {
  /** The other arguments (or template variables) the client has already filled in. */
  readonly arguments: Readonly<Record<string, string>>;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
}

/**
 * Suggests values for one argument, given what the user typed so far.
 *
 * @param value The partial value.
 * @param context The other arguments and the cancellation signal.
 * @returns The suggestions, best first (more than 100 are cut, and `hasMore` is set).
 */
export type Completer = (
  value: string,
  context: CompletionContext,
) => readonly string[] | Promise<readonly string[]>;

/** MCP's completion answer. */
export interface CompletionResult {
  /** Up to 100 suggestions. */
  values: string[];
  /** How many suggestions there are in all. */
  total: number;
  /** Whether there are more than `values` holds. */
  hasMore: boolean;
}

/**
 * Shapes a completer's suggestions into MCP's answer, keeping at most 100 values.
 *
 * @param values The suggestions.
 * @returns The answer.
 */
export function completionResult(values: readonly string[]): CompletionResult {
  const all = values.filter((value) => typeof value === "string");
  return {
    values: all.length > MAX_COMPLETION_VALUES ? all.slice(0, MAX_COMPLETION_VALUES) : all,
    total: all.length,
    hasMore: all.length > MAX_COMPLETION_VALUES,
  };
}

/**
 * Checks and freezes the completers a builder collected.
 *
 * @param completers The completers by argument name.
 * @param known The argument (or variable) names that exist.
 * @param what Names the definition in errors.
 * @returns The frozen map, or `undefined` when there are none.
 * @throws {TypeError} When a completer names an unknown argument or is not a function.
 */
export function freezeCompleters(
  completers: Readonly<Record<string, Completer>> | undefined,
  known: readonly string[],
  what: string,
): ReadonlyMap<string, Completer> | undefined {
  if (completers === undefined) return undefined;
  const map = new Map<string, Completer>();
  for (const [name, completer] of Object.entries(completers)) {
    if (!known.includes(name)) {
      throw new TypeError(`${what}: cannot complete "${name}": it is not one of ${JSON.stringify(known)}`);
    }
    if (typeof completer !== "function") throw new TypeError(`${what}: the completer for "${name}" must be a function`);
    map.set(name, completer);
  }
  return map;
}
