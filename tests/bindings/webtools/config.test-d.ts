/**
 * Type tests, checked by `deno check` (never executed): `.config()` types `ctx.config`, and the type
 * survives the rest of the builder chain.
 */
import * as v from "valibot";
import { defineTool } from "../../../mod.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

defineTool("typed")
  .config(v.object({ apiKey: v.string(), units: v.optional(v.picklist(["metric", "imperial"]), "metric") }))
  .describe("declared before the input, kept after it")
  .input(v.object({ city: v.string() }))
  .output(v.object({ units: v.string() }))
  .handle(({ city }, ctx) => {
    type _config = Expect<Equal<typeof ctx.config, { apiKey: string; units: "metric" | "imperial" }>>;
    type _city = Expect<Equal<typeof city, string>>;
    // @ts-expect-error: not declared
    ctx.config.region;
    return { units: ctx.config.units };
  });

defineTool("streamed")
  .config(v.object({ depth: v.number() }))
  .stream(async function* (_args, ctx) {
    type _config = Expect<Equal<typeof ctx.config, { depth: number }>>;
    yield ctx.config.depth;
  });

defineTool("unconfigured").handle((_args, ctx) => {
  type _config = Expect<Equal<typeof ctx.config, unknown>>;
  return "ok";
});
