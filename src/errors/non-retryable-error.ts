/**
 * The marker of an error that no retry can mend, for work that `retry` runs again (`LongRunningOptions.retry`,
 * `work.step(name, fn, { retry })`). Why: docs/concepts/errors.md, "Errors that are not retried".
 *
 * @module
 */

/**
 * An error that ends work at once, however many `attempts` its `retry` has left: a card declined, a record that does
 * not exist, a request the remote refuses for good. Throw it (with the error it stands for as `cause`) where a retry
 * cannot help; the job then fails with its message, as with any other error the work throws (`maskErrors` masks it,
 * and `onError` hears it). A `ToolError` the work throws is final too, and answered as is: throw that for a failure
 * the caller should read. A plain `Error`, not an `McpliteError`: it names what the server does, not an answer,
 * and never crosses a wire. As Cloudflare Workflows' `NonRetryableError`, Inngest's `NonRetriableError`, BullMQ's
 * `UnrecoverableError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../mod.ts";
 * import { NonRetryableError } from "./mod.ts";
 *
 * let charges = 0;
 * const charge = defineTool("charge")
 *   .input(v.object({ card: v.string() }))
 *   .longRunning({ retry: { attempts: 5 } })
 *   .defer(async ({ card }, work) =>
 *     await work.step("charge", () => {
 *       charges++;
 *       if (card === "declined") throw new NonRetryableError("the card was declined");
 *       return { charged: card };
 *     }));
 * const server = createServer({ name: "shop", version: "1.0.0", secret: "a secret of at least thirty-two bytes!" })
 *   .tool(charge);
 * const called = await server.call("charge", { card: "declined" });
 * assert.equal(called.kind, "promise");
 * let redeemed = await server.call("redeem", { promise: called.kind === "promise" ? called.token : "" });
 * for (let i = 0; i < 200 && redeemed.kind === "promise"; i++) {
 *   await new Promise((resolve) => setTimeout(resolve, 5));
 *   redeemed = await server.call("redeem", { promise: redeemed.token });
 * }
 * assert.equal(redeemed.kind, "failure"); // "the card was declined"
 * assert.equal(charges, 1); // not retried
 * ```
 */
export class NonRetryableError extends Error {
  /**
   * Makes the error.
   *
   * @param message What failed, as the job's failure says it.
   * @param options The error it stands for (`cause`), kept for logs.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "NonRetryableError";
  }
}
