/**
 * The tools the tests of a connection carrier share (stdio, WebSocket): one that waits until it is
 * cancelled and records why, one that streams partials with progress, one that elicits a name.
 */
import * as v from "valibot";
import { defineTool } from "../../mod.ts";

/**
 * Makes the tools.
 *
 * @param aborted Receives the reason of each aborted `slow` call.
 * @returns `slow` (`{ ms }`, answers `slept <ms>`), `count` (partials `part 1 ` … `part 3 `, with
 *   progress) and `ask` (elicits `name`, answers `hello <name>`).
 */
export function connectionTools(aborted: string[]) {
  const slow = defineTool("slow").describe("Waits until cancelled").input(v.object({ ms: v.number() })).handle((
    { ms },
    ctx,
  ) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve(`slept ${ms}`), ms);
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        aborted.push(String(ctx.signal.reason?.message ?? ctx.signal.reason));
        reject(ctx.signal.reason);
      }, { once: true });
    })
  );
  const count = defineTool("count").describe("Streams three parts").stream(async function* (_args, ctx) {
    for (let i = 1; i <= 3; i++) {
      ctx.progress(i, 3);
      yield `part ${i} `;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  });
  const ask = defineTool("ask").describe("Asks a name").handle(async (_args, ctx) => {
    const answer = await ctx.elicit("name", {
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    return `hello ${answer.content?.name}`;
  });
  return { slow, count, ask };
}
