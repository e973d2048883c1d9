/**
 * Definitions grouped from another server (`server.group()`) keep that server's middleware: its
 * request middleware (`use()`) and tool middleware (`useTool()`) run around them, inside the parent's,
 * and around nothing else. A grouped definition carries the runtimes of the servers it came through,
 * outermost first; the chains are read on each call, so middleware added to a child later applies too.
 *
 * @module
 */
import type { CallContext } from "./call-context.ts";
import { type Call, runMiddleware, type ToolCall } from "./middleware.ts";
import type { CallOutcome } from "./outcome.ts";
import type { Runtime } from "../instance/runtime.ts";

/**
 * Where a grouped definition carries its runtimes, outermost first: a symbol-keyed property of the copy the group
 * owns, a value on it rather than a table beside it (the public types do not name it; a spread copies it).
 */
const GROUP = Symbol("mcplite.group");

/**
 * The runtimes whose middleware wrap a definition (set by `server.group()`), outermost first.
 *
 * @param definition A tool, resource or prompt definition (or a view of one made with {@link grouped}).
 * @returns Its runtimes, or `undefined` when it was not grouped.
 */
export function groupOf(definition: object): readonly Runtime[] | undefined {
  return (definition as { [GROUP]?: readonly Runtime[] })[GROUP];
}

/**
 * A definition grouped through `runtimes`: a frozen copy that carries them.
 *
 * @param definition The definition.
 * @param runtimes Its runtimes, outermost first (`undefined`: not grouped).
 * @returns The copy.
 */
export function grouped<T extends object>(definition: T, runtimes: readonly Runtime[] | undefined): T {
  return Object.freeze({ ...definition, [GROUP]: runtimes });
}

/**
 * Gives a view of a definition (a resolved resource, say) the runtimes the definition was grouped through.
 *
 * @param view The view the call runs with.
 * @param definition The definition it was made from.
 * @returns The view, or a frozen copy of it that carries them.
 */
export function sameGroupAs<T extends object>(view: T, definition: object): T {
  const group = groupOf(definition);
  return group === undefined ? view : grouped(view, group);
}

/**
 * Runs a grouped tool's call through its servers' request and tool middleware, then `last`.
 *
 * @param group The runtimes, outermost first.
 * @param call The tool call (tool middleware may rewrite its arguments).
 * @param last The tool itself: validation, the handler, the outcome.
 * @returns The outcome.
 */
export function runToolInGroup(
  group: readonly Runtime[],
  call: ToolCall,
  last: (call: ToolCall) => Promise<CallOutcome>,
): Promise<CallOutcome> {
  let next = last;
  for (let i = group.length - 1; i >= 0; i--) {
    const { middleware, toolMiddleware } = group[i];
    const inner = next;
    const tools = toolMiddleware.length === 0 ? inner : (c: ToolCall) => runMiddleware(toolMiddleware, c, inner);
    next = middleware.length === 0 ? tools : (c: ToolCall) => {
      const seen: Call = {
        method: "tools/call",
        name: c.name,
        params: { name: c.name, arguments: c.arguments },
        ctx: c.ctx,
      };
      return runMiddleware(middleware, seen, () => tools(c)) as Promise<CallOutcome>;
    };
  }
  return next(call);
}

/**
 * Runs a grouped resource read or prompt through its servers' request middleware, then `last`.
 *
 * @param group The runtimes, outermost first.
 * @param call The request as middleware sees it.
 * @param last The handler.
 * @returns What the handler (or a middleware) answered.
 */
export function runHandlerInGroup<T>(
  group: readonly Runtime[],
  call: Call,
  last: (ctx: CallContext) => Promise<T>,
): Promise<T> {
  let next = () => last(call.ctx);
  for (let i = group.length - 1; i >= 0; i--) {
    const chain = group[i].middleware;
    const inner = next;
    if (chain.length > 0) next = () => runMiddleware(chain, call, inner) as Promise<T>;
  }
  return next();
}
