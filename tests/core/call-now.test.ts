/**
 * `callNow`, the pipeline's synchronous-first entry: a synchronous tool's outcome comes back as a
 * value (no promise), anything that has to wait as a promise, and `runCall` keeps its contract on top
 * of it (a promise that rejects, never a synchronous throw). The checks run in the same order either way.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { defineTool } from "../../mod.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { callNow, runCall } from "../../src/core/call/pipeline.ts";
import { Definitions } from "../../src/core/definitions/registry.ts";
import { Runtime } from "../../src/core/instance/runtime.ts";

const add = defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => String(a + b));
const later = defineTool("later").input(v.object({ a: v.number() })).handle(async ({ a }) => {
  await Promise.resolve();
  return String(a);
});
const throws = defineTool("throws").handle(() => {
  throw new Error("boom");
});

function registry(runtime = new Runtime()): Definitions {
  const tools = new Definitions(runtime);
  tools.add(add);
  tools.add(later);
  tools.add(throws);
  return tools;
}

function request(name: string, args: unknown) {
  return {
    name,
    arguments: args,
    meta: { wire: "in-process" as const, headers: new Headers() },
    signal: new AbortController().signal,
  };
}

describe("callNow", () => {
  it("answers a synchronous tool at once, as a value", () => {
    const outcome = callNow(registry(), request("add", { a: 1, b: 2 }));
    assert.ok(!(outcome instanceof Promise));
    assert.deepEqual(outcome, { kind: "answer", result: { content: [{ type: "text", text: "3" }] } });
  });

  it("turns a synchronous throw into a failure at once, as runCall does", async () => {
    const now = callNow(registry(), request("throws", {}));
    assert.ok(!(now instanceof Promise));
    assert.deepEqual(now, await runCall(registry(), request("throws", {})));
    assert.equal(now.kind, "failure");
  });

  it("answers with a promise when the handler is asynchronous, or middleware runs", async () => {
    const pending = callNow(registry(), request("later", { a: 7 }));
    assert.ok(pending instanceof Promise);
    assert.deepEqual(await pending, { kind: "answer", result: { content: [{ type: "text", text: "7" }] } });
    const runtime = new Runtime();
    runtime.use((_call, next) => next());
    const wrapped = callNow(registry(runtime), request("add", { a: 1, b: 2 }));
    assert.ok(wrapped instanceof Promise);
    assert.equal((await wrapped).kind, "answer");
  });

  it("throws invalid arguments synchronously, where runCall rejects with the same error", async () => {
    assert.throws(
      () => callNow(registry(), request("add", { a: "1", b: 2 })),
      (e: ProtocolError) => e.code === ErrorCode.InvalidArguments,
    );
    const running = runCall(registry(), request("add", { a: "1", b: 2 }));
    assert.ok(running instanceof Promise);
    await assert.rejects(
      running,
      (e: ProtocolError) => e instanceof ProtocolError && e.code === ErrorCode.InvalidArguments,
    );
  });

  it("refuses a non-finite number before validation, as before", () => {
    assert.throws(
      () => callNow(registry(), request("add", { a: Infinity, b: 2 })),
      (e: ProtocolError) => e.code === ErrorCode.InvalidArguments && /finite/.test(e.message),
    );
  });
});
