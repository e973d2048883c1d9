/**
 * A program's `TypeError: not a function` names what was called, as V8's message does (QuickJS says only "not a
 * function"): a member call, a plain call, a call of a call's result, an index, a chain over lines, read back from
 * the program at the error's position; through `execute_code` too, a TypeScript program whose first line follows the
 * sandbox's own. Where the callee cannot be read back (a parenthesised expression), QuickJS's message stays.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer } from "../../mod.ts";
import { codeMode, quickjsExecutor } from "../../src/code-mode/mod.ts";
import { callAny } from "../helpers/outcome.ts";

const executor = quickjsExecutor();

/** Generous limits: only the message matters here. */
const LIMITS = {
  timeMs: 30_000,
  cpuMs: 10_000,
  memoryBytes: 16 << 20,
  stackBytes: 128 << 10,
  outputBytes: 16 << 10,
  pendingCalls: 8,
} as const;

/** The message of `source`'s exception, run by the executor. */
async function thrown(source: string): Promise<string> {
  const outcome = await executor.execute({ source, call: () => Promise.resolve({}), limits: LIMITS });
  assert.ok(!outcome.ok && outcome.reason === "thrown", JSON.stringify(outcome));
  return outcome.message;
}

describe("a call of what is not a function names the callee", () => {
  it("a member call, a plain call, a call of a call's result, an index, a chain over lines", async () => {
    assert.equal(
      await thrown("const items = { length: 2 };\nreturn items.map((x) => x * 2);"),
      "TypeError: items.map is not a function (at program.js:2:17)",
    );
    assert.equal(
      await thrown("const total = 3;\nreturn total(1);"),
      "TypeError: total is not a function (at program.js:2:13)",
    );
    assert.equal(
      await thrown("const make = () => 1;\nreturn make(2)(3);"),
      "TypeError: make(...) is not a function (at program.js:2:15)",
    );
    assert.equal(
      await thrown("const rows = [{ get: 1 }];\nreturn rows[0].get();"),
      "TypeError: rows[0].get is not a function (at program.js:2:19)",
    );
    assert.equal(
      await thrown("const r = { items: {} };\nreturn r.items\n  .filter((x) => x);"),
      "TypeError: r.items.filter is not a function (at program.js:3:10)",
    );
  });

  it("keeps QuickJS's message where the callee is no name: a parenthesised expression", async () => {
    assert.equal(await thrown("const o = {};\nreturn (o || 1)();"), "TypeError: not a function (at program.js:2:16)");
  });

  it("says it to the model through execute_code, for a TypeScript program's first line too", async () => {
    const server = createServer({ name: "shop", version: "1.0.0", codeMode: codeMode({ executor }) });
    const said = async (code: string) => {
      const outcome = await callAny(server, "execute_code", { code });
      assert.equal(outcome.kind, "failure", JSON.stringify(outcome));
      return outcome.kind === "failure" ? (outcome.result.content[0] as { text: string }).text : "";
    };
    assert.match(
      await said("const orders: { list: object } = { list: {} };\nreturn orders.list.map((o: unknown) => o);"),
      /^The program threw TypeError: orders\.list\.map is not a function \(at program\.js:2:\d+\)$/,
    );
    assert.match(
      await said("const n: number = 1; return n();"),
      /^The program threw TypeError: n is not a function \(at program\.js:1:\d+\)$/,
    );
  });
});
