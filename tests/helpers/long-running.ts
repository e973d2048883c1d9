/**
 * Fixtures for long-running and multi-step tools: a continuation job, deferred work, and a wizard that
 * asks for input in rounds. Each call of {@link createJobTools} makes fresh tools with their own counters.
 */
import * as v from "valibot";
import { createServer, defineTool, fail, type ServerOptions } from "../../mod.ts";

/** A secret for tests (≥ 32 bytes). */
export const SECRET = "test secret: at least thirty-two bytes long";

/** Counts what the fixtures did, so tests can see side effects run once. */
export interface JobCounters {
  started: number;
  redeemed: number;
  cancelled: number;
  holds: number;
  charges: number;
}

/** Makes the fixture tools, with fresh counters and a gate that releases the deferred work. */
export function createJobTools() {
  const counters: JobCounters = { started: 0, redeemed: 0, cancelled: 0, holds: 0, charges: 0 };
  let release!: (rows: number) => void;
  const gate = new Promise<number>((resolve) => release = resolve);

  /** Completes after `polls` redeems; its state travels in the token. */
  const analyze = defineTool("analyze_dataset")
    .type("analysis")
    .describe("Analyses a dataset; answers with a promise")
    .input(v.object({ dataset_id: v.string(), polls: v.optional(v.number(), 2) }))
    .output(v.object({ dataset_id: v.string(), rows: v.number() }))
    .handle(({ dataset_id, polls }, ctx) => {
      counters.started++;
      return ctx.promise({
        state: { dataset_id, left: polls },
        retryAfterMs: 5,
        estimatedCompletion: "2030-01-01T00:00:00.000Z",
      });
    })
    .redeem(({ dataset_id, left }, ctx) => {
      counters.redeemed++;
      return left <= 1
        ? { dataset_id, rows: 42 }
        : ctx.promise({ state: { dataset_id, left: left - 1 }, retryAfterMs: 5 });
    })
    .cancel(() => {
      counters.cancelled++;
    });

  /** Runs in this process until `release(rows)`; its result waits in the result store. */
  const crunch = defineTool("crunch")
    .describe("Crunches numbers in the background")
    .longRunning({ retryAfterMs: 5 })
    .handle((_args, ctx) =>
      ctx.defer(async (signal) => {
        counters.started++;
        const rows = await Promise.race([
          gate,
          new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
        ]);
        if (rows < 0) throw new Error("the numbers did not add up");
        return { rows };
      })
    );

  /** Asks who travels, then (with the roots) for a confirmation; holds and charges run once per call. */
  const bookTrip = defineTool("book_trip")
    .describe("Books a trip in several rounds")
    .input(v.object({ city: v.string() }))
    .handle(async ({ city }, ctx) => {
      const hold = await ctx.step("hold", () => `H-${++counters.holds}`);
      const who = await ctx.elicit("traveller", {
        message: "Who travels?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      });
      if (who.action !== "accept") return fail("The traveller declined");
      const charge = await ctx.step("charge", () => ++counters.charges);
      const [confirm, roots] = await Promise.all([
        ctx.elicit("confirm", {
          message: `Book ${city} for ${who.content?.name}?`,
          requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
        }),
        ctx.roots("roots"),
      ]);
      return {
        hold,
        charge,
        city,
        name: who.content?.name,
        confirmed: confirm.action === "accept",
        roots: roots.roots.length,
      };
    });

  return { counters, release, analyze, crunch, bookTrip };
}

/** A server with the fixture tools of `tools` (fresh ones by default). */
export function jobServer(options: Partial<ServerOptions> = {}, tools = createJobTools()) {
  const server = createServer({ name: "jobs", version: "0.0.1", secret: SECRET, ...options })
    .tool(tools.analyze)
    .tool(tools.crunch)
    .tool(tools.bookTrip);
  return { server, ...tools };
}

/** The bounded wait for a state (tests/helpers/wait.ts), where the job tests have long imported it from. */
export { LOADED_MS, waitFor } from "./wait.ts";
