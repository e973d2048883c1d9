/**
 * The error a parent's work meets when the child work it invoked (`invoke()`) did not give a value: the child failed
 * (its tool's failure, a timeout, its input refused) or was cancelled. Why: docs/concepts/long-running.md, "Child
 * work".
 *
 * @module
 */
import type { ErrorCode } from "./error.ts";
import { NonRetryableError } from "./non-retryable-error.ts";

/**
 * A child's failure or cancellation, as the parent's work catches it from `invoke()`: the child's tool, its status,
 * its error code when it failed with one (a timeout is `deadline_exceeded`) and its message. It is a
 * {@link NonRetryableError}: the parent's journal keeps the child's end, so a retry of the parent would meet it again.
 * Uncaught, it fails the parent with its message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool, invoke } from "../../mod.ts";
 * import { ChildWorkError, ToolError } from "./mod.ts";
 *
 * const charge = defineTool("charge").input(v.object({ card: v.string() })).longRunning()
 *   .defer(({ card }) => {
 *     if (card === "declined") throw new ToolError("the card was declined");
 *     return { charged: card };
 *   });
 * const order = defineTool("order").input(v.object({ card: v.string() })).longRunning()
 *   .defer(async ({ card }, work) => {
 *     try {
 *       return await invoke(work, "charge", charge, { card });
 *     } catch (error) {
 *       if (error instanceof ChildWorkError) return { refused: error.message, status: error.status };
 *       throw error;
 *     }
 *   });
 * const server = createServer({ name: "shop", version: "1.0.0" }).tool(charge).tool(order);
 * let called = await server.call("order", { card: "declined" });
 * for (let i = 0; i < 200 && called.kind === "promise"; i++) {
 *   await new Promise((resolve) => setTimeout(resolve, 5));
 *   called = await server.call("redeem", { promise: called.token });
 * }
 * assert.equal(called.kind, "answer");
 * ```
 */
export class ChildWorkError extends NonRetryableError {
  /** The child's tool. */
  readonly tool: string;
  /** How the child ended: `failed`, or `cancelled` (its parent was not). */
  readonly status: "failed" | "cancelled";
  /** The child's error code, when it failed with a protocol error (`deadline_exceeded` for a timeout). */
  readonly code?: ErrorCode | number;
  /** The data of the child's error, if any. */
  readonly data?: unknown;

  /**
   * Makes the error.
   *
   * @param tool The child's tool.
   * @param message Why it gave no value, as its caller would read it.
   * @param options How it ended, its code and data.
   */
  constructor(
    tool: string,
    message: string,
    options: { readonly status: "failed" | "cancelled"; readonly code?: ErrorCode | number; readonly data?: unknown },
  ) {
    super(`child work of tool "${tool}" ${options.status}: ${message}`);
    this.name = "ChildWorkError";
    this.tool = tool;
    this.status = options.status;
    if (options.code !== undefined) this.code = options.code;
    if (options.data !== undefined) this.data = options.data;
  }
}
