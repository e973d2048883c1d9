import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool } from "../../../mod.ts";
import { slowProbe } from "../../helpers/fixtures.ts";
import { legacyRequest, modernRequest } from "../../helpers/request.ts";
import { waitFor } from "../../helpers/long-running.ts";
import { mcpServer, modern, SseReader } from "./mcp-helpers.ts";

const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const PARTIALS = "io.mcplite/partials";

describe("2026-07-28: progress, logging and cancellation on the call's stream", () => {
  it("answers as JSON when the call says nothing before its result", async () => {
    const response = await mcpServer().fetch(modernRequest("tools/call", { name: "chatty", arguments: {} }));
    assert.equal(response.headers.get("content-type"), "application/json");
    const { result } = await response.json();
    assert.equal(result.content[0].text, "done");
  });

  it("sends log messages only at or above the request's logLevel, then the result with resultType", async () => {
    const request = modernRequest("tools/call", { name: "chatty", arguments: {}, _meta: { [LOG_LEVEL]: "warning" } });
    const response = await mcpServer().fetch(request);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    assert.equal(response.headers.get("x-accel-buffering"), "no");
    const events = await new SseReader(response).rest();
    assert.deepEqual(events.slice(0, -1).map((e) => e.params.level), ["warning", "error"]);
    const final = events.at(-1);
    assert.equal(final.result.resultType, "complete");
    assert.equal(final.result._meta["io.modelcontextprotocol/serverInfo"].name, "fixtures");
  });

  it("sends stream partials as notifications/partial to a request that asks, never as progress", async () => {
    const countdown = await new SseReader(
      await mcpServer().fetch(modernRequest("tools/call", {
        name: "countdown",
        arguments: { count: 3 },
        _meta: { progressToken: "p1", [PARTIALS]: true },
      })),
    ).rest();
    assert.deepEqual(countdown.slice(0, -1).map((e) => e.method), Array(4).fill("notifications/partial"));
    assert.deepEqual(countdown.slice(0, -1).map((e) => e.params), [
      { progressToken: "p1", partial: "3 " },
      { progressToken: "p1", partial: "2 " },
      { progressToken: "p1", partial: "1 " },
      { progressToken: "p1", partial: "liftoff" },
    ]);
    assert.equal(countdown.at(-1).result.content[0].text, "3 2 1 liftoff");
  });

  it("sends a request that does not ask for partials none, so a quiet stream answers as JSON", async () => {
    const response = await mcpServer().fetch(modernRequest("tools/call", {
      name: "countdown",
      arguments: { count: 3 },
      _meta: { progressToken: "p1" },
    }));
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal((await response.json()).result.content[0].text, "3 2 1 liftoff");
  });

  it("never sends progress that goes backwards or repeats, and partials take no step of it", async () => {
    const jumpy = defineTool("jumpy").stream(async function* (_args, ctx) {
      ctx.progress(1, 10);
      yield "a";
      ctx.progress(1, 10); // a repeat: dropped
      ctx.progress(0.5, 10); // backwards: dropped
      ctx.progress(5, 10, "half");
      yield "b";
      ctx.progress(3, 10); // backwards: dropped
      yield "c";
      ctx.progress(10, 10);
    });
    for (const era of ["2026-07-28", "2025-11-25"]) {
      const server = createServer({ name: "p", version: "1" }).tool(jumpy);
      const params = { name: "jumpy", arguments: {}, _meta: { progressToken: "j", [PARTIALS]: true } };
      const request = era === "2026-07-28" ? modernRequest("tools/call", params) : legacyRequest("tools/call", params);
      const events = await new SseReader(await server.fetch(request)).rest();
      const progress = events.filter((e) => e.method === "notifications/progress").map((e) => e.params);
      assert.deepEqual(progress.map((p) => [p.progress, p.total, p.message]), [
        [1, 10, undefined],
        [5, 10, "half"],
        [10, 10, undefined],
      ], era);
      const partials = events.filter((e) => e.method === "notifications/partial").map((e) => e.params.partial);
      assert.deepEqual(partials, ["a", "b", "c"], era);
    }
  });

  it("keeps the answer JSON without a progressToken, even for a tool that reports progress", async () => {
    const response = await mcpServer().fetch(modernRequest("tools/call", { name: "slow", arguments: { ms: 1 } }));
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal((await response.json()).result.content[0].text, "finished");
  });

  it("switches to SSE with a keep-alive when a quiet call outlives the heartbeat", async () => {
    // The call stays quiet until the answer has become a stream: a 120 ms call against a 30 ms heartbeat could
    // end first on a loaded machine, which armed the heartbeat late.
    let release!: () => void;
    const released = new Promise<void>((resolve) => release = resolve);
    const quiet = defineTool("quiet").describe("Quiet until released").input(v.object({})).handle(
      async () => (await released, "finished"),
    );
    const server = createServer({ name: "quiet", version: "1.0.0", heartbeatMs: 30 }).tool(quiet);
    // Bounded (and the event loop kept alive: the heartbeat's timer does not): without a stream in 10 s, the
    // call answers as JSON, which fails below.
    const bound = setTimeout(release, 10_000);
    const response = await server.fetch(modernRequest("tools/call", { name: "quiet", arguments: {} }));
    clearTimeout(bound);
    release();
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    const text = await response.text();
    assert.match(text, /^: keep-alive/m);
    assert.match(text, /"finished"/);
  });

  it("aborts ctx.signal when the client closes the stream", async () => {
    const server = mcpServer();
    const before = slowProbe.aborted;
    const stream = new SseReader(
      await server.fetch(modernRequest("tools/call", {
        name: "slow",
        arguments: { ms: 10_000 },
        _meta: { progressToken: 7 },
      })),
    );
    const first = await stream.next();
    assert.equal(first.method, "notifications/progress");
    await stream.close();
    await waitFor(() => slowProbe.aborted !== before, 10_000).catch(() => {}); // asserted next
    assert.equal(slowProbe.aborted, before + 1);
  });

  it("aborts a signal read before the answer became a stream, when the client closes that stream", async () => {
    // No progressToken: the call stays quiet until the heartbeat turns the answer into a stream.
    const server = mcpServer({ heartbeatMs: 30 });
    const before = slowProbe.aborted;
    const response = await server.fetch(modernRequest("tools/call", { name: "slow", arguments: { ms: 10_000 } }));
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    await response.body!.cancel();
    await waitFor(() => slowProbe.aborted !== before, 10_000).catch(() => {}); // asserted next
    assert.equal(slowProbe.aborted, before + 1);
  });

  it("hands an already aborted signal to a handler that reads it after the client closed the stream", async () => {
    let closed!: () => void;
    const clientGone = new Promise<void>((done) => closed = done);
    let seen: boolean | undefined;
    const late = defineTool("late")
      .input(v.object({}))
      .handle(async (_input, ctx) => {
        ctx.progress(1, 2, "streaming now");
        await clientGone;
        seen = ctx.signal.aborted;
        return "done";
      });
    const server = createServer({ name: "late", version: "1.0.0" }).tool(late);
    const response = await server.fetch(
      modernRequest("tools/call", { name: "late", arguments: {}, _meta: { progressToken: 1 } }),
    );
    const stream = new SseReader(response);
    assert.equal((await stream.next()).method, "notifications/progress");
    await stream.close();
    closed();
    await waitFor(() => seen !== undefined, 10_000).catch(() => {}); // asserted next
    assert.equal(seen, true);
  });

  it("refuses to ask for a capability the request did not declare: ctx.elicit() is -32021, naming it", async () => {
    const { status, body } = await modern(mcpServer(), "tools/call", { name: "confirm", arguments: { what: "x" } });
    assert.equal(status, 400);
    assert.equal(body.error.code, -32021);
    assert.deepEqual(body.error.data.requiredCapabilities, { elicitation: {} });
  });
});
