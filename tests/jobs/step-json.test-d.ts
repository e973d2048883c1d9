/**
 * Type tests for `work.step()`: its value is typed as JSON gives it back (`Jsonify<T>`), the start that ran the step
 * included: a `Date` is a string, `undefined` and function fields are dropped, `toJSON()` is honoured, an array's
 * holes are `null`, and a value with no JSON form is `never`. Checked by `deno check`, never run.
 */
import { defineTool } from "../../mod.ts";
import type { Jsonify, WorkContext } from "../../src/types.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

declare const work: WorkContext;

// The case: a step that makes a Date gives a string, typed so.
const now = await work.step("now", () => new Date(0));
export type DateIsString = Expect<Equal<typeof now, string>>;
// @ts-expect-error it is no Date
now.getTime();

// Fields: undefined and functions dropped (optional where they may be missing), nested Dates strings.
type Row = {
  readonly id: number;
  at: Date;
  note?: string;
  maybe: string | undefined;
  gone: undefined;
  format(): string;
  callback?: () => void;
  tags: (string | undefined)[];
  pair: [Date, () => void];
  nested: { when: Date; list: Date[] };
};
const row = await work.step("row", (): Promise<Row> => Promise.reject(new Error("typed only")));
export type RowThroughJson = Expect<
  Equal<typeof row, {
    id: number;
    at: string;
    note?: string;
    maybe?: string;
    tags: (string | null)[];
    pair: [string, null];
    nested: { when: string; list: string[] };
  }>
>;

// toJSON() is honoured; a Map or a Set is an empty object; primitives and null are themselves.
const money = { cents: 150, toJSON: () => ({ amount: "1.50" }) };
export type ToJsonHonoured = Expect<Equal<Jsonify<typeof money>, { amount: string }>>;
export type MapIsEmpty = Expect<Equal<Jsonify<Map<string, number>>, Record<string, never>>>;
export type Primitives = Expect<Equal<Jsonify<string | number | boolean | null>, string | number | boolean | null>>;

// A step with no value gives undefined; one that may have none, that or its value.
const sent = await work.step("send", async () => {});
export type NoValue = Expect<Equal<typeof sent, undefined>>;
const found = await work.step("find", (): string | undefined => undefined);
export type MaybeValue = Expect<Equal<typeof found, string | undefined>>;

// No JSON form (refused when recorded): a function, a symbol, a bigint.
export type NoJsonForm = Expect<Equal<Jsonify<() => void> | Jsonify<symbol> | Jsonify<bigint>, never>>;

// unknown and any stay so.
export type Unknown = Expect<Equal<Jsonify<unknown>, unknown>>;
// deno-lint-ignore no-explicit-any
export type Any = Expect<Equal<Jsonify<any>, any>>;

// In a tool's declared work, as users write it.
defineTool("stamped").longRunning().defer(async (_input, work) => {
  const at = await work.step("at", () => new Date());
  // @ts-expect-error a string, not a Date
  const year: number = at.getFullYear();
  return { at, year };
});
