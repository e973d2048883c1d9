/**
 * Type tests for a long-running tool's combinations: each way of deferring work that the types accept runs, on any
 * server (with a queue too: inline work runs in process there, tests/bullmq/inline-work.test.ts), and each that a
 * server would refuse does not compile: `ctx.defer(fn)` needs `.longRunning()`, `ctx.defer(input)` a declared work
 * (`.defer()`), and `retry` a declared work too. Checked by `deno check`, never run.
 */
import * as v from "valibot";
import { type CallContext, defineTool } from "../../mod.ts";

const input = v.object({ id: v.string() });

// Inline work: after .longRunning(), with or without its other options; in process, on a server with a queue too.
defineTool("inline").input(input).longRunning().handle(({ id }, ctx) => ctx.defer(() => id));
defineTool("inline_ttl").longRunning({ ttlMs: 60_000, timeoutMs: 1_000 }).handle((_, ctx) => ctx.defer(() => 1));
defineTool("inline_no_options").longRunning(undefined).handle((_, ctx) => ctx.defer(() => 1));

defineTool("inline_without_long_running").handle((_, ctx) =>
  // @ts-expect-error ctx.defer() needs .longRunning() before .handle()
  ctx.defer(() => 1)
);

// Input handed to declared work: only where the tool declares it.
defineTool("declared").input(input).defer((job: { id: string }) => job.id).handle(({ id }, ctx) => ctx.defer({ id }));
defineTool("declared_retried").input(input).longRunning({ retry: { attempts: 3 } })
  .defer((job: { id: string }, work) => work.step("echo", () => job.id))
  .handle(({ id }, ctx) => ctx.defer({ id }));
defineTool("declared_alone").input(input).longRunning({ retry: { attempts: 3, backoff: 1_000 } }).defer(({ id }) => id);
// Inline work beside declared work runs in process, with a queue too, retried when it throws (a death ends it stopped).
defineTool("declared_and_inline").longRunning({ retry: { attempts: 2 } }).defer(() => 1).handle((_, ctx) =>
  ctx.defer(() => 2)
);

defineTool("input_without_work").input(input).longRunning().handle(({ id }, ctx) =>
  // @ts-expect-error no declared work (.defer()) to hand input to
  ctx.defer({ id })
);

// retry: only declared work can start again on another instance or a worker (inline work's function cannot travel).
defineTool("retried_inline").longRunning({ retry: { attempts: 3 } }).handle((_, ctx) =>
  // @ts-expect-error with retry, declare the work with .defer()
  ctx.defer(() => 1)
);
defineTool("retried_input").longRunning({ retry: { attempts: 3 } }).handle((_, ctx) =>
  // @ts-expect-error with retry, declare the work with .defer()
  ctx.defer({ n: 1 })
);

// A continuation (ctx.promise() and .redeem()) is long-running whatever its options, and needs no declared work.
defineTool("continued").longRunning({ retry: { attempts: 2 } }).handle((_, ctx) => ctx.promise({ state: 1 }))
  .redeem((n) => n + 1);

// The context is a CallContext still, whatever ctx.defer() may start: helpers typed with one accept it.
const report = (ctx: CallContext) => ctx.progress(1, 2);
defineTool("helper_inline").longRunning().handle((_, ctx) => (report(ctx), ctx.defer(() => 1)));
defineTool("helper_retried").longRunning({ retry: { attempts: 2 } }).handle((_, ctx) => (report(ctx), "now"));
defineTool("helper_declared").defer(() => 1).handle((_, ctx) => (report(ctx), ctx.defer()));
