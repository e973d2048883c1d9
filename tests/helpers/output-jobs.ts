/**
 * Long-running tools that declare an output schema, for clients that validate results against it:
 * deferred work that ends after 150 ms, and a continuation done after three looks.
 */
import * as v from "valibot";
import { defineTool } from "../../mod.ts";

/** The output schema of every fixture here. */
export const Rows = v.object({ rows: v.number() });

/**
 * `crunch` (deferred work answering `{ rows: n }`; its promise says to poll again in 30 s, so an answer
 * well before proves the wait ended with the work) and `watch` (a continuation).
 */
export function outputJobTools() {
  const crunch = defineTool("crunch")
    .describe("Crunches numbers in the background")
    .input(v.object({ n: v.optional(v.number(), 42) }))
    .output(Rows)
    .longRunning({ retryAfterMs: 30_000 })
    .handle(({ n }, ctx) =>
      ctx.defer(async () => {
        await new Promise((resolve) => setTimeout(resolve, 150)); // the work's own length
        return { rows: n };
      })
    );
  const watch = defineTool("watch")
    .describe("Watches a job that is done after three looks")
    .output(Rows)
    .longRunning({ retryAfterMs: 30 })
    .handle((_args, ctx) => ctx.promise({ state: { left: 3 } }))
    .redeem(({ left }, ctx) => left <= 1 ? { rows: 7 } : ctx.promise({ state: { left: left - 1 } }));
  return [crunch, watch] as const;
}
