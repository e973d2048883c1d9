/**
 * The tool table every binding reads: one `Map` lookup per call, and list bodies that are built once
 * and rebuilt only when the table changes.
 *
 * @module
 */
import type { AnyTool } from "../tool/tool-def.ts";
import type { ToolCall } from "./middleware.ts";
import type { Outcome } from "./outcome.ts";

/** A Koa-style middleware: it sees the decoded call and may short-circuit by not calling `next`. */
export type Middleware = (call: ToolCall, next: () => Promise<Outcome>) => Promise<Outcome>;

/** Receives errors that were masked or turned into failures, with the call that raised them, if any. */
export type ErrorReporter = (error: unknown, call?: ToolCall) => void;

/**
 * The registry: tools by name, middleware, and memoised list bodies.
 */
export class Registry {
  readonly #tools = new Map<string, AnyTool>();
  readonly #memo = new Map<string, unknown>();
  readonly #listeners = new Set<() => void>();
  /** The middleware chain, outermost first. */
  readonly middleware: Middleware[] = [];
  /** Where masked errors go. */
  onError: ErrorReporter | undefined;

  /**
   * Looks a tool up. This is the only registry work on the hot path.
   *
   * @param name The tool name.
   * @returns The tool, or `undefined`.
   */
  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** The registered tools, in registration order. */
  get tools(): IterableIterator<AnyTool> {
    return this.#tools.values();
  }

  /** The registered tool names, in registration order. */
  get names(): IterableIterator<string> {
    return this.#tools.keys();
  }

  /**
   * Registers a tool.
   *
   * @param tool The tool.
   * @throws {TypeError} When a tool of that name exists already.
   */
  add(tool: AnyTool): void {
    if (this.#tools.has(tool.name)) throw new TypeError(`a tool named "${tool.name}" is registered already`);
    this.#tools.set(tool.name, tool);
    this.#changed();
  }

  /**
   * Removes a tool.
   *
   * @param name The tool name.
   * @returns Whether a tool was removed.
   */
  remove(name: string): boolean {
    const removed = this.#tools.delete(name);
    if (removed) this.#changed();
    return removed;
  }

  /**
   * Returns a value computed from the table, computing it only after a change (list bodies, ETags).
   *
   * @param key What is memoised.
   * @param build Computes the value.
   * @returns The memoised value.
   */
  memo<T>(key: string, build: () => T): T {
    let value = this.#memo.get(key) as T | undefined;
    if (value === undefined) {
      value = build();
      this.#memo.set(key, value);
    }
    return value;
  }

  /**
   * Subscribes to changes of the table (for `list_changed` notifications).
   *
   * @param listener Called after each change.
   * @returns A function that unsubscribes.
   */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    this.#memo.clear();
    for (const listener of this.#listeners) listener();
  }
}
