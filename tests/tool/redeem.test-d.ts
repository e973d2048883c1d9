/**
 * Type tests for promises and `.redeem()`: the continuation's state is inferred from the handler.
 * Checked by `deno check`, never run.
 */
import * as v from "valibot";
import { defineTool, type Tool } from "../../mod.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

// The state type flows from ctx.promise() in the handler to .redeem(), with or without an output schema.
const analyze = defineTool("analyze")
  .input(v.object({ id: v.string() }))
  .handle(({ id }, ctx) => id === "" ? "nothing to do" : ctx.promise({ state: { job: id, polls: 0 } }))
  .redeem(({ job, polls }, ctx) => polls > 2 ? `done: ${job}` : ctx.promise({ state: { job, polls: polls + 1 } }));
type _State = Expect<
  Equal<
    typeof analyze extends Tool<"analyze", unknown, unknown, unknown, infer S> ? S : never,
    { job: string; polls: number }
  >
>;

const typed = defineTool("typed")
  .output(v.object({ total: v.number() }))
  .handle((_args, ctx) => ctx.promise({ state: { n: 1 } }))
  .redeem(({ n }) => ({ total: n }));
void typed;

defineTool("wrong_output")
  .output(v.object({ total: v.number() }))
  .handle((_args, ctx) => ctx.promise({ state: { n: 1 } }))
  // @ts-expect-error the continuation must return the output type
  .redeem(({ n }) => ({ total: String(n) }));

defineTool("wrong_state")
  .handle((_args, ctx) => ctx.promise({ state: { n: 1 } }))
  // @ts-expect-error the state has no `m`
  .redeem(({ m }) => m);

// A tool without promises keeps working as before.
const plain = defineTool("plain").input(v.object({ a: v.number() })).output(v.object({ b: v.number() })).handle((
  { a },
) => ({ b: a }));
void plain;
// @ts-expect-error the output must match the schema
defineTool("bad").output(v.object({ b: v.number() })).handle(() => ({ b: "x" }));
