/**
 * A streaming tool that reports its own progress: five times `ctx.progress(i, 5, "step i")`, then a
 * yielded part. Served over HTTP by the tests and over stdio by `stepping-stdio-server.ts`.
 */
import { createServer, defineTool, type Server } from "../../mod.ts";

/** The progress the tool reports, as `[progress, total, message]`. */
export const STEPS: readonly (readonly [number, number, string])[] = [1, 2, 3, 4, 5].map((i) =>
  [i, 5, `step ${i}`] as const
);

/** What the tool yields, in order. */
export const PARTS: readonly string[] = STEPS.map(([i]) => `part ${i} `);

/** Reports a step, then yields its part, five times. */
export const stepping = defineTool("stepping")
  .describe("Reports five steps and streams a part after each")
  .stream(async function* (_args, ctx) {
    for (const [i, total, message] of STEPS) {
      ctx.progress(i, total, message);
      yield PARTS[i - 1];
    }
  });

let acknowledged = Promise.withResolvers<void>();

/**
 * `stepping`, waiting after its first step (for at most 10 s) until the caller calls `ack`: over stdio the
 * official clients drop progress they read in the same chunk as the answer (typescript-sdk issue 2580), and
 * a caller that acknowledges the first step has shown it arrived, however loaded the machine.
 */
export const steppingAcked = defineTool("stepping_acked")
  .describe("As stepping, waiting after the first step until ack is called")
  .stream(async function* (_args, ctx) {
    acknowledged = Promise.withResolvers<void>();
    for (const [i, total, message] of STEPS) {
      ctx.progress(i, total, message);
      if (i === 1) {
        const bound = setTimeout(acknowledged.resolve, 10_000);
        await acknowledged.promise.finally(() => clearTimeout(bound));
      }
      yield PARTS[i - 1];
    }
  });

/** Lets a waiting `stepping_acked` go on. */
export const ack = defineTool("ack").describe("Lets stepping_acked go on").handle(() => {
  acknowledged.resolve();
  return "ok";
});

/**
 * The server holding the tool.
 *
 * @returns A new server.
 */
export function steppingServer(): Server {
  return createServer({ name: "stepping", version: "1.0.0" }).tool(stepping).tool(steppingAcked).tool(ack);
}
