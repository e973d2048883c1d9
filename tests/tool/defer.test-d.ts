/**
 * Type tests for `ctx.defer()`: it compiles only in a `.longRunning()` tool, wherever `.longRunning()`
 * sits before `.handle()`. Checked by `deno check`, never run.
 */
import * as v from "valibot";
import { type CallContext, defineTool } from "../../mod.ts";

defineTool("not_declared")
  .input(v.object({ n: v.number() }))
  .handle((_args, ctx) =>
    // @ts-expect-error ctx.defer() needs .longRunning() before .handle()
    ctx.defer(() => 1)
  );

defineTool("declared_first").longRunning().input(v.object({ n: v.number() })).handle((_args, ctx) =>
  ctx.defer(() => 1)
);

defineTool("declared_last")
  .input(v.object({ n: v.number() }))
  .config(v.object({ key: v.string() }))
  .longRunning({ retryAfterMs: 10 })
  .handle(({ n }, ctx) => ctx.defer(() => n + ctx.config.key.length));

// The context of any tool is still a CallContext: helpers typed with one accept it.
const progressHalf = (ctx: CallContext) => ctx.progress(1, 2);
defineTool("helper").handle((_args, ctx) => {
  progressHalf(ctx);
  return ctx.promise({ state: 1 });
}).redeem(() => "done");
