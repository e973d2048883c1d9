/**
 * Type tests, checked by `deno check` (never executed): what the DSL infers, and calls that must not
 * compile. An `@ts-expect-error` that stops erroring fails the check.
 */
import * as v from "valibot";
import { createServer, defineTool, type InferToolInput, type InferToolOutput } from "../../mod.ts";
import type { InferToolArgs } from "../../src/core/definitions/tool.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

const search = defineTool("search")
  .input(v.object({ query: v.string(), limit: v.optional(v.number(), 10) }))
  .output(v.object({ hits: v.array(v.string()) }))
  .handle(({ query, limit }) => {
    type _args = Expect<Equal<typeof query, string>>;
    type _limit = Expect<Equal<typeof limit, number>>; // the default makes it required for the handler
    return { hits: [query] };
  });

export type InputIsCallerSide = Expect<
  Equal<InferToolInput<typeof search>, { query: string; limit?: number | undefined }>
>;
export type ArgsAreHandlerSide = Expect<Equal<InferToolArgs<typeof search>, { query: string; limit: number }>>;
export type OutputIsStructured = Expect<Equal<InferToolOutput<typeof search>, { hits: string[] }>>;
export type NameIsLiteral = Expect<Equal<typeof search.name, "search">>;

const server = createServer({ name: "t", version: "1" }).tool(search);
type Tools = NonNullable<(typeof server)["~tools"]>;
export type ServerCarriesTools = Expect<Equal<keyof Tools, "search">>;

defineTool("bad_return")
  .output(v.object({ hits: v.array(v.string()) }))
  // @ts-expect-error the handler must return the output schema's type
  .handle(() => ({ hits: [1, 2] }));

defineTool("bad_arg")
  .input(v.object({ a: v.number() }))
  // @ts-expect-error `b` is not an argument of this tool
  .handle(({ b }) => String(b));

defineTool("wrong_type")
  .input(v.object({ a: v.number() }))
  // @ts-expect-error `a` is a number, not a string
  .handle(({ a }) => a.toUpperCase());
