/**
 * Saved programs of code mode: a caller's programs kept by name in the server's shared store, each a record
 * (`cmprog:<name>:<principal>`) indexed in a set per principal (`cmprogs:<principal>`). The principal is `callerKey()`'s, without a session: another connection of the same
 * caller finds them, another caller never does.
 *
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import type { AuthInfo } from "../core/call/call-context.ts";
import { callerKey } from "../core/call/caller-key.ts";
import type { JsonSchema } from "../core/schema.ts";
import { isObject } from "../internal/is-object.ts";
import { utf8Length } from "../internal/utf8-length.ts";
import type { ResultStore } from "../jobs/result-store.ts";
import type { SharedStore } from "../store/shared-store.ts";
import { type StoreSpace, storeSpace } from "../store/store-space.ts";
import { recordOf, sharedStoreOf } from "../store/store-of.ts";
import { Bm25fIndex } from "../tool-search/bm25f-index.ts";
import { searchTokens } from "../tool-search/search-tokens.ts";

/**
 * Options of saved programs (`codeMode({ savedPrograms })`): where they live and how many a caller keeps. A caller
 * saves a program that worked with `save_program`, finds it with `discover_tools` and runs it with
 * `execute_code({ program, args })` in any later session; another caller never sees it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, defineTool } from "../../mod.ts";
 * import { codeMode, type SavedProgramsOptions } from "./mod.ts";
 *
 * // A caller keeps 5 programs here; `anonymous`: this server authenticates nobody, so its callers share them.
 * const savedPrograms: SavedProgramsOptions = { max: 5, anonymous: true };
 * // Programs answer inline for up to 30 s here (default 5 s; past it, the call answers with a promise).
 * const server = createServer({ name: "shop", version: "1.0.0", codeMode: codeMode({ savedPrograms, promiseAfterMs: 30_000 }) })
 *   .tool(defineTool("orders").describe("Lists the orders").handle(() => ({ orders: [{ id: 1, total: 30 }, { id: 2, total: 5 }] })));
 * const call = server.call.bind(server) as (name: string, args: object) => ReturnType<typeof server.call>;
 *
 * const code = "const { orders } = await tools.orders();\nreturn orders.filter((o) => o.total >= args.min).map((o) => o.id);";
 * const tried = await call("execute_code", { code, args: { min: 10 } }); // it works: the model saves it as it ran
 * assert.deepEqual(tried.kind === "answer" && tried.result.structuredContent, { result: [1], logs: [] });
 * await call("save_program", {
 *   name: "big_orders",
 *   description: "The ids of the orders of at least a total",
 *   code,
 *   inputSchema: { type: "object", properties: { min: { type: "number" } }, required: ["min"] },
 * });
 * const found = await call("discover_tools", { query: "orders over a total" });
 * assert.deepEqual(found.kind === "answer" && found.result.structuredContent?.programs, [
 *   { name: "big_orders", description: "The ids of the orders of at least a total" },
 * ]);
 * const ran = await call("execute_code", { program: "big_orders", args: { min: 1 } });
 * assert.deepEqual(ran.kind === "answer" && ran.result.structuredContent, { result: [1, 2], logs: [] });
 * ```
 */
export interface SavedProgramsOptions {
  /** Where they are kept. Default: the server's `resultStore` (memory, Redis, PostgreSQL…), else one in memory. */
  readonly store?: ResultStore;
  /** How many programs one caller keeps (default 20). */
  readonly max?: number;
  /** The bytes of one program: its code, description and input schema's JSON, in UTF-8 (default 16 KiB). */
  readonly maxBytes?: number;
  /** How long a program is kept after it was saved, in ms (default 90 days); saving it again renews it. */
  readonly ttlMs?: number;
  /**
   * Whether callers without an authenticated subject share one set of programs (a server of one user: stdio, a
   * local server). Default `false`: such a caller may not save or run one.
   */
  readonly anonymous?: boolean;
  /** The save tool's name (default `save_program`). */
  readonly tool?: string;
}

/** A saved program. */
export interface SavedProgram {
  /** Its name, an identifier. */
  readonly name: string;
  /** What it does, as the caller wrote it. */
  readonly description: string;
  /** The program, as `execute_code` runs it. */
  readonly code: string;
  /** The JSON Schema of its `args` (an object schema). */
  readonly inputSchema: JsonSchema;
}

/** A name a program may have: an identifier, so that it reads as one in declarations. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The saved programs of one code mode: their settings, and their store once the server is known. */
export class SavedPrograms {
  /** How many programs one caller keeps. */
  readonly max: number;
  /** The bytes of one program. */
  readonly maxBytes: number;
  readonly #ttlMs: number;
  readonly #anonymous: boolean;
  readonly #store: () => SharedStore;

  /**
   * @param options The options.
   * @param store The server's shared store, read at the first call (the options' store, if given, wins).
   * @throws {TypeError} When a bound is not a positive integer.
   */
  constructor(options: SavedProgramsOptions, store: () => SharedStore) {
    this.max = options.max ?? 20;
    this.maxBytes = options.maxBytes ?? 16 << 10;
    this.#ttlMs = options.ttlMs ?? 90 * 86_400_000;
    for (const [key, value] of [["max", this.max], ["maxBytes", this.maxBytes], ["ttlMs", this.#ttlMs]] as const) {
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new TypeError(`codeMode(): savedPrograms.${key} is a positive integer`);
      }
    }
    this.#anonymous = options.anonymous ?? false;
    const given = options.store;
    this.#store = given === undefined ? store : () => sharedStoreOf(given);
  }

  /**
   * Whose programs a caller's are: its principal (subject and OAuth client), without a session.
   *
   * @param auth The caller.
   * @returns The key, or `undefined` for a caller that cannot keep programs.
   */
  principal(auth: AuthInfo | undefined): string | undefined {
    return callerKey(auth, undefined) ?? (this.#anonymous ? "anonymous" : undefined);
  }

  /**
   * The caller's programs, by name.
   *
   * @param principal Whose.
   * @returns Them, sorted by name.
   */
  async list(principal: string): Promise<SavedProgram[]> {
    const index = this.#index();
    const names = await index.members(principal);
    const read = await Promise.all(names.map((name) => this.get(principal, name)));
    const gone = names.filter((_, i) => read[i] === undefined); // expired or evicted: the index forgets them
    await Promise.all(gone.map((name) => index.removeMember(principal, name)));
    return read.filter((p) => p !== undefined).sort((a, b) => a.name < b.name ? -1 : 1);
  }

  /**
   * One of the caller's programs.
   *
   * @param principal Whose.
   * @param name Its name.
   * @returns It, or `undefined`.
   */
  async get(principal: string, name: string): Promise<SavedProgram | undefined> {
    if (!NAME.test(name)) return undefined;
    const state = recordOf(await this.#programs().get(programKey(principal, name)));
    return isObject(state) && state.name === name && typeof state.code === "string"
      ? state as unknown as SavedProgram
      : undefined;
  }

  /**
   * Saves a program (replacing one of its name), within the caller's count.
   *
   * @param principal Whose.
   * @param program The program, checked (see {@link checkProgram}).
   * @returns Why it was refused, or `undefined` once saved.
   */
  async save(principal: string, program: SavedProgram): Promise<string | undefined> {
    const kept = await this.list(principal);
    if (kept.length >= this.max && !kept.some((p) => p.name === program.name)) {
      return `You have ${kept.length} saved programs, at most ${this.max}: remove one first ` +
        `(${kept.map((p) => p.name).join(", ")})`;
    }
    await this.#programs().put(programKey(principal, program.name), program, this.#ttlMs);
    await this.#index().addMember(principal, program.name, this.#ttlMs);
    return undefined;
  }

  /**
   * Removes one of the caller's programs.
   *
   * @param principal Whose.
   * @param name Its name.
   * @returns Whether there was one.
   */
  async remove(principal: string, name: string): Promise<boolean> {
    const had = await this.get(principal, name) !== undefined;
    await this.#programs().delete(programKey(principal, name));
    await this.#index().removeMember(principal, name);
    return had;
  }

  /**
   * The caller's programs that match a query best (BM25F over the name's words and the description's).
   *
   * @param principal Whose.
   * @param query What the model wants to do.
   * @param limit How many at most.
   * @returns The best, best first.
   */
  async search(principal: string, query: string, limit: number): Promise<SavedProgram[]> {
    const programs = await this.list(principal);
    const index = new Bm25fIndex(programs.map((p) => [searchTokens(p.name), searchTokens(p.description)]), {
      weights: [3, 1],
      b: [0.3, 0.75],
    });
    return index.search(searchTokens(query), limit).map(({ doc }) => programs[doc]);
  }

  /**
   * Checks a program before it is saved: its name, its size, its input schema (an object schema that compiles).
   *
   * @param program The program.
   * @returns Why it cannot be saved, or `undefined`.
   */
  checkProgram(program: SavedProgram): string | undefined {
    if (!NAME.test(program.name)) {
      return `A program's name is an identifier of up to 64 letters, digits and _ (not ${
        JSON.stringify(program.name)
      })`;
    }
    const bytes = utf8Length(program.code) + utf8Length(program.description) +
      utf8Length(JSON.stringify(program.inputSchema));
    if (bytes > this.maxBytes) {
      return `The program is ${bytes} bytes (code, description and inputSchema), at most ${this.maxBytes}: make it shorter`;
    }
    const schema = program.inputSchema;
    if (schema.type !== "object") return 'inputSchema is the JSON Schema of an object: { "type": "object", ... }';
    try {
      new Validator(schema as never, "2020-12", false).validate({});
    } catch (error) {
      return `inputSchema is not a JSON Schema that compiles: ${error instanceof Error ? error.message : error}`;
    }
    return undefined;
  }

  /** The programs, by name and whose (the `cmprog` namespace; records of before the store contract read too). */
  #programs(): StoreSpace<unknown> {
    return storeSpace(this.#store(), "cmprog");
  }

  /** Each caller's set of names, by whose (the `cmprogs` namespace). */
  #index(): StoreSpace<never> {
    return storeSpace(this.#store(), "cmprogs");
  }
}

/** A program's key: the name first (an identifier, so no `:`), then whose. */
const programKey = (principal: string, name: string) => `${name}:${principal}`;
