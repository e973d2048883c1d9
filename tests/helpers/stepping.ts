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

/**
 * The server holding the tool.
 *
 * @returns A new server.
 */
export function steppingServer(): Server {
  return createServer({ name: "stepping", version: "1.0.0" }).tool(stepping);
}
