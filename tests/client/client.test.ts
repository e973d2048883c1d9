/**
 * The typed client against our own server, in process (its `fetch` called directly), over MCP-lite
 * and MCP: values, failures, typed errors, streams, progress, cancellation, timeouts and the tools
 * list cache.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding } from "../../mod.ts";
import { type CallResult, createClient } from "../../src/client/mod.ts";
import { ErrorCode, McpliteError, ProtocolError, ToolError } from "../../src/errors/mod.ts";
import { fixtureServer, sleep, slowProbe } from "../helpers/fixtures.ts";
import { waitFor } from "../helpers/long-running.ts";
import { recordTimers } from "../helpers/recorded-timers.ts";

const WIRES = ["mcp-lite", "mcp"] as const;

/** Reports progress every `everyMs` for `steps` steps. */
const ticking = defineTool("ticking")
  .input(v.object({ steps: v.number(), everyMs: v.number() }))
  .handle(async ({ steps, everyMs }, ctx) => {
    for (let i = 1; i <= steps; i++) {
      await sleep(everyMs, ctx.signal);
      ctx.progress(i, steps, `step ${i}`);
    }
    return "ticked";
  });

function server() {
  return fixtureServer().tool(ticking);
}

for (const wire of WIRES) {
  describe(`client in process over ${wire}`, () => {
    it("infers and returns a tool's structured output", async () => {
      const client = createClient(server(), { transport: wire });
      const { sum } = await client.call("add", { a: 2, b: 3 });
      assert.equal(sum, 5);
      assert.equal(client.wire, wire);
    });

    it("returns the text of a tool without structured output, and the typed shortcut does the same", async () => {
      const client = createClient(server(), { transport: wire });
      assert.equal(await client.call("echo", { text: "ab", times: 2 }), "abab");
      assert.equal(await client.tools.echo({ text: "x" }), "x");
    });

    it("throws a failed tool as ToolError, or returns it with failure: value", async () => {
      const client = createClient(server(), { transport: wire });
      await assert.rejects(client.call("fails", {}), (error: unknown) => {
        assert.ok(error instanceof ToolError);
        assert.equal(error.code, ErrorCode.ToolFailed);
        assert.equal(error.message, "the quota is exhausted");
        assert.equal(error.tool, "fails");
        return true;
      });
      const failure = await client.call("fails", {}, { failure: "value" });
      assert.ok(failure instanceof ToolError);
      const result: CallResult = await client.callTool("fails", {});
      assert.equal(result.isError, true);
    });

    it("reports an unknown tool as a ProtocolError unknown_tool with the server's data", async () => {
      const client = createClient(server(), { transport: wire });
      // deno-lint-ignore no-explicit-any
      await assert.rejects(client.call("ad" as any, {}), (error: unknown) => {
        assert.ok(error instanceof ProtocolError);
        assert.equal(error.code, "unknown_tool");
        assert.equal(typeof error.rpcCode, "number");
        assert.match(JSON.stringify(error.data), /Did you mean 'add'/);
        return true;
      });
    });

    it("streams partials and resolves the final value", async () => {
      const client = createClient(server(), { transport: wire });
      const stream = client.stream("countdown", { count: 3 });
      const partials: unknown[] = [];
      for await (const partial of stream) partials.push(partial);
      assert.deepEqual(partials.map(String).map((p) => p.trim()), ["3", "2", "1", "liftoff"]);
      assert.equal(await stream.result, "3 2 1 liftoff");
    });

    it("delivers progress, which keeps a call alive past its idle timeout", async () => {
      const client = createClient(server(), { transport: wire });
      const seen: number[] = [];
      // 12 steps of 100 ms outlive the 1 s idle timeout; a gap of 100 ms leaves 900 ms for a loaded machine
      // to run the tool's timer late (a gap of 40 ms to a timeout of 150 ms left 110 ms).
      const timers = recordTimers();
      let value: unknown;
      try {
        value = await client.call("ticking", { steps: 12, everyMs: 100 }, {
          timeoutMs: 1_000,
          onProgress: (p) => seen.push(p.progress),
        });
      } finally {
        timers.restore();
      }
      assert.equal(value, "ticked");
      assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      // The tool's steps waited one after another: the call lasted their sum at least, whatever the machine's speed.
      const stepped = timers.delays.filter((ms) => ms === 100).length * 100;
      assert.ok(stepped >= 1_000, `the call outlived its idle timeout: ${stepped} ms of steps`);
    });

    it("fails a silent call with a timeout error after its idle timeout", async () => {
      const client = createClient(server(), { transport: wire });
      // The idle timeout's own words: the call's tick, 2 s in, would have answered it instead.
      await assert.rejects(client.call("ticking", { steps: 1, everyMs: 2_000 }, { timeoutMs: 100 }), (error) => {
        assert.ok(error instanceof McpliteError && !(error instanceof ProtocolError), String(error));
        assert.equal(error.code, ErrorCode.Timeout);
        assert.match(error.message, /nothing arrived for 100 ms/);
        return true;
      });
    });

    it("cancels a call through its AbortSignal, and the handler sees it", async () => {
      const client = createClient(server(), { transport: wire });
      const before = slowProbe.aborted;
      const controller = new AbortController();
      const call = client.call("slow", { ms: 5_000 }, {
        signal: controller.signal,
        onProgress: () => controller.abort(new Error("stop")),
      });
      await assert.rejects(call, /stop/);
      await waitFor(() => slowProbe.aborted !== before, 10_000).catch(() => {}); // asserted next
      assert.equal(slowProbe.aborted, before + 1);
    });

    it("lists tools with their JSON Schemas", async () => {
      const client = createClient(server(), { transport: wire });
      const tools = await client.listTools();
      const add = tools.find((t) => t.name === "add")!;
      assert.equal(add.inputSchema.type, "object");
      assert.deepEqual(Object.keys(add.inputSchema.properties as object), ["a", "b"]);
      assert.equal(add.outputSchema?.type, "object");
    });
  });
}

describe("client typing and plumbing", () => {
  it("works untyped against any server", async () => {
    const target = server();
    const client = createClient("http://localhost/mcp", { fetch: (r) => target.fetch(r) });
    const value: unknown = await client.call("add", { a: 1, b: 1 });
    assert.deepEqual(value, { sum: 2 });
  });

  it("reports invalid arguments as a ProtocolError invalid_arguments on MCP-lite and on MCP", async () => {
    const lite = createClient(server(), { transport: "mcp-lite" });
    // deno-lint-ignore no-explicit-any
    await assert.rejects(lite.call("add", { a: "x" } as any), (error: unknown) => {
      assert.ok(error instanceof ProtocolError);
      assert.equal(error.code, ErrorCode.InvalidArguments);
      assert.match(error.message, /a: /);
      return true;
    });
    const mcp = createClient(server(), { transport: "mcp" });
    await assert.rejects(
      // deno-lint-ignore no-explicit-any
      mcp.call("add", { a: "x" } as any),
      (error: unknown) => error instanceof ProtocolError && error.code === ErrorCode.InvalidArguments,
    );
    // callTool() gives the model MCP's whole isError result, as the server sent it.
    // deno-lint-ignore no-explicit-any
    assert.equal((await mcp.callTool("add", { a: "x" } as any)).isError, true);
  });

  it("revalidates the MCP tools list with its ETag (304) and serves a fresh list from memory", async () => {
    const seen: { method: string; status: number; inm: string | null }[] = [];
    const counting = (target: { fetch(r: Request): Promise<Response> }) => async (request: Request) => {
      const body = await request.clone().text();
      const response = await target.fetch(request);
      seen.push({
        method: body ? JSON.parse(body).method : "",
        status: response.status,
        inm: request.headers.get("if-none-match"),
      });
      return response;
    };
    const revalidating = createClient("http://localhost/mcp", { fetch: counting(server()) });
    const first = await revalidating.listTools();
    const second = await revalidating.listTools();
    assert.deepEqual(second, first);
    const lists = seen.filter((s) => s.method === "tools/list");
    assert.equal(lists.length, 2);
    assert.equal(lists[0].status, 200);
    assert.equal(lists[1].status, 304);
    assert.ok(lists[1].inm);

    seen.length = 0;
    const cached = createServer({
      name: "cached",
      version: "1",
      bindings: [mcpBinding({ listCache: { ttlMs: 60_000, scope: "public" } })],
    })
      .tool(ticking);
    const fresh = createClient("http://localhost/mcp", { fetch: counting(cached) });
    await fresh.listTools();
    await fresh.listTools();
    assert.equal(seen.filter((s) => s.method === "tools/list").length, 1);
    await fresh.listTools({ fresh: true });
    assert.equal(seen.filter((s) => s.method === "tools/list").length, 2);
  });

  it("reads every page of a paginated list", async () => {
    let target = createServer({ name: "paged", version: "1", bindings: [mcpBinding({ pageSize: 2 })] });
    for (const name of ["a1", "a2", "a3", "a4", "a5"]) target = target.tool(defineTool(name).handle(() => name));
    const client = createClient("http://localhost/mcp", { fetch: (r) => target.fetch(r) });
    assert.deepEqual((await client.listTools()).map((t) => t.name), ["a1", "a2", "a3", "a4", "a5"]);
  });
});
