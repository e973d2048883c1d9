/**
 * The type of a step's value as the journal gives it back: its JSON form (ECMA-262 §25.5.2, `JSON.stringify`), as
 * Inngest and type-fest type it. A contract of the core (`WorkContext.step()` returns it); the jobs layer records
 * the value (`src/jobs/step-json.ts`).
 *
 * @module
 */

/**
 * The type of a value once it went through JSON (`JSON.parse(JSON.stringify(value))`): what `work.step()` gives back,
 * on the start that ran the step too. `toJSON()` is honoured (a `Date` is a `string`); an object's fields whose value
 * is `undefined`, a function or a symbol are dropped (optional, where they may be); in an array they are `null`; a
 * `Map` or a `Set` is an empty object. A top-level `undefined` (a step with no value) stays `undefined`; a function,
 * a symbol or a `bigint` has no JSON form (`never`: `work.step()` refuses it as it records it). `NaN` and the
 * infinities, typed `number`, come back `null`.
 *
 * @typeParam T The value's type.
 *
 * @example
 * ```ts
 * import type { Jsonify } from "../../types.ts";
 *
 * type Row = { id: number; at: Date; note?: string; format(): string };
 * const row: Jsonify<Row> = { id: 1, at: "1970-01-01T00:00:00.000Z" }; // `at` a string, `format` gone
 * ```
 */
// deno-lint-ignore no-explicit-any
export type Jsonify<T> = 0 extends 1 & T ? any
  : unknown extends T ? unknown
  : T extends { toJSON(): infer J } ? Jsonify<J>
  : T extends string | number | boolean | null | undefined ? T
  : T extends void ? undefined
  : T extends bigint | symbol | ((...args: never) => unknown) | (abstract new (...args: never) => unknown) ? never
  : T extends ReadonlyMap<unknown, unknown> | ReadonlySet<unknown> ? Record<string, never>
  // An array's element: what JSON drops from an object is `null` there.
  : T extends readonly unknown[] ? {
      -readonly [K in keyof T]:
        | Exclude<Jsonify<T[K]>, undefined>
        | ([Extract<T[K], undefined | symbol | ((...args: never) => unknown)>] extends [never] ? never : null);
    }
  // An object's fields that stay (keyed by a string, with a JSON form), optional where they may be missing (their
  // value may be `undefined`, a function or a symbol); mapped once more, to show as one object type.
  : T extends object ? (
      & {
        -readonly [
          K in keyof T as K extends symbol ? never : 0 extends 1 & T[K] ? K
          : [Exclude<Jsonify<T[K]>, undefined>] extends [never] ? never
          : undefined extends Jsonify<T[K]> ? never
          : [Extract<T[K], symbol | ((...args: never) => unknown)>] extends [never] ? K
          : never
        ]: Jsonify<T[K]>;
      }
      & {
        -readonly [
          K in keyof T as K extends symbol ? never : 0 extends 1 & T[K] ? never
          : [Exclude<Jsonify<T[K]>, undefined>] extends [never] ? never
          : undefined extends Jsonify<T[K]> ? K
          : [Extract<T[K], symbol | ((...args: never) => unknown)>] extends [never] ? never
          : K
        ]?: Exclude<Jsonify<T[K]>, undefined>;
      }
    ) extends infer O ? { [K in keyof O]: O[K] } : never
  : never;
