import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createContextKey, createServer, defineTool, fail, text, toolResult } from "../../mod.ts";
import { ErrorCode, ProtocolError, ToolError } from "../../src/errors/mod.ts";
import { fixtureServer } from "../helpers/fixtures.ts";
import { callAny, final } from "../helpers/outcome.ts";

describe("the call pipeline", () => {
  it("validates, runs the handler and shapes a structured result", async () => {
    const outcome = final(await fixtureServer().call("add", { a: 2, b: 40 }));
    assert.equal(outcome.kind, "answer");
    assert.deepEqual(outcome.result, {
      content: [{ type: "text", text: '{"sum":42}' }],
      structuredContent: { sum: 42 },
    });
  });

  it("hands the handler the schema's output (defaults applied)", async () => {
    const outcome = final(await fixtureServer().call("echo", { text: "ab" }));
    assert.deepEqual(outcome.result.content, [{ type: "text", text: "ab" }]);
  });

  it("answers unknown_tool with the known names and a suggestion", async () => {
    await assert.rejects(callAny(fixtureServer(), "ad", {}), (e: ProtocolError) => {
      assert.equal(e.code, ErrorCode.UnknownTool);
      assert.deepEqual(e.data, {
        requested_tool: "ad",
        available_tools: ["add", "echo", "fails", "crashes", "countdown", "slow"],
        suggestion: "Did you mean 'add'?",
      });
      return true;
    });
    await assert.rejects(
      callAny(fixtureServer(), "zzzzzzzz", {}),
      (e: ProtocolError) => !("suggestion" in (e.data as object)),
    );
  });

  it("answers invalid_arguments naming every failing path", async () => {
    await assert.rejects(callAny(fixtureServer(), "add", { a: "1" }), (e: ProtocolError) => {
      assert.equal(e.code, ErrorCode.InvalidArguments);
      const issues = (e.data as { issues: { path: string }[] }).issues.map((i) => i.path);
      assert.deepEqual(issues, ["a", "b"]);
      assert.match(e.message, /a: .*b: /);
      return true;
    });
    await assert.rejects(callAny(fixtureServer(), "add", [1, 2]), { code: ErrorCode.InvalidArguments });
  });

  it("treats missing arguments as {}", async () => {
    const tool = defineTool("noargs").handle(() => "fine");
    const outcome = final(await callAny(createServer({ name: "t", version: "1" }).tool(tool), "noargs", undefined));
    assert.deepEqual(outcome.result.content, [{ type: "text", text: "fine" }]);
  });

  it("turns a ToolError into a failure with its message and data", async () => {
    const outcome = final(await fixtureServer().call("fails", {}));
    assert.equal(outcome.kind, "failure");
    assert.deepEqual(outcome.result, { content: [{ type: "text", text: "the quota is exhausted" }], isError: true });
    const withData = defineTool("with_data").handle(() => {
      throw new ToolError("over limit", { data: { limit: 3 } });
    });
    const r = final(await createServer({ name: "t", version: "1" }).tool(withData).call("with_data", {}));
    assert.deepEqual(r.result.structuredContent, { limit: 3 });
  });

  it("turns any other throw into a failure carrying the message only, and reports it to onError", async () => {
    const seen: unknown[] = [];
    const outcome = final(await fixtureServer({ onError: (error) => seen.push(error) }).call("crashes", {}));
    assert.equal(outcome.kind, "failure");
    assert.deepEqual(outcome.result.content, [{ type: "text", text: "database connection refused" }]);
    assert.ok(!JSON.stringify(outcome.result).includes("at "), "no stack frames");
    assert.equal(seen.length, 1);
    assert.equal((seen[0] as Error).message, "database connection refused");
  });

  it("lets a handler return failure results, content blocks or complete results", async () => {
    const server = createServer({ name: "t", version: "1" })
      .tool(defineTool("f").handle(() => fail("no such city", { city: "Atlantis" })))
      .tool(defineTool("blocks").handle(() => [text("one"), text("two")]))
      .tool(defineTool("full").handle(() => toolResult({ content: [text("x")], structuredContent: { y: 1 } })))
      .tool(defineTool("arr").handle(() => [1, 2]));
    const f = final(await server.call("f", {}));
    assert.equal(f.kind, "failure");
    assert.deepEqual(f.result.structuredContent, { city: "Atlantis" });
    assert.deepEqual(
      final(await server.call("blocks", {})).result.content.map((b: unknown) => (b as { text: string }).text),
      ["one", "two"],
    );
    assert.deepEqual(final(await server.call("full", {})).result, {
      content: [{ type: "text", text: "x" }],
      structuredContent: { y: 1 },
    });
    assert.deepEqual(final(await server.call("arr", {})).result, { content: [{ type: "text", text: "[1,2]" }] });
  });

  it("passes a ProtocolError thrown by a handler on to the wire", async () => {
    const tool = defineTool("denied").handle(() => {
      throw new ProtocolError(ErrorCode.PermissionDenied, "admins only");
    });
    await assert.rejects(createServer({ name: "t", version: "1" }).tool(tool).call("denied", {}), {
      code: ErrorCode.PermissionDenied,
    });
  });

  it("drains streams into a final result: joined text, or the generator's return value", async () => {
    const partials: unknown[] = [];
    const outcome = final(
      await fixtureServer().call("countdown", { count: 2 }, { onPartial: (p) => partials.push(p) }),
    );
    assert.deepEqual(partials, ["2 ", "1 ", "liftoff"]);
    assert.deepEqual(outcome.result.content, [{ type: "text", text: "2 1 liftoff" }]);
    const returns = defineTool("returns")
      .output(v.object({ total: v.number() }))
      .stream(async function* () {
        yield 1;
        return { total: 1 };
      });
    const r = final(await createServer({ name: "t", version: "1" }).tool(returns).call("returns", {}));
    assert.deepEqual(r.result.structuredContent, { total: 1 });
  });

  it("stops a stream when its call is aborted: the generator is closed, nothing more is pulled", async () => {
    const probe = { yielded: 0, closed: false };
    const endless = defineTool("endless").stream(async function* () {
      try {
        for (let i = 1; i <= 1000; i++) {
          probe.yielded = i;
          yield i;
          await new Promise((resolve) => setTimeout(resolve, 1)); // the stream's own work between values
        }
      } finally {
        probe.closed = true;
      }
    });
    const controller = new AbortController();
    const partials: unknown[] = [];
    const outcome = final(
      await createServer({ name: "t", version: "1" }).tool(endless).call("endless", {}, {
        signal: controller.signal,
        onPartial: (partial) => {
          partials.push(partial);
          if (partial === 3) controller.abort(new Error("enough"));
        },
      }),
    );
    assert.equal(outcome.kind, "failure");
    assert.deepEqual(outcome.result.content, [{ type: "text", text: "enough" }]);
    assert.deepEqual(partials, [1, 2, 3]);
    assert.equal(probe.closed, true);
    assert.ok(probe.yielded <= 4, `pulled ${probe.yielded} values after the abort`);
  });

  it("turns a throw mid-stream into a failure", async () => {
    const broken = defineTool("broken").stream(async function* () {
      yield "a";
      throw new ToolError("disk full");
    });
    const r = final(await createServer({ name: "t", version: "1" }).tool(broken).call("broken", {}));
    assert.equal(r.kind, "failure");
    assert.deepEqual(r.result.content, [{ type: "text", text: "disk full" }]);
  });
});

describe("middleware", () => {
  it("runs in order around every call, sees the decoded call and can set auth and values", async () => {
    const order: string[] = [];
    const tenant = createContextKey("none", "tenant");
    const whoami = defineTool("whoami").handle((_args, ctx) => `${ctx.auth?.subject}@${ctx.get(tenant)}`);
    const server = createServer({ name: "t", version: "1" })
      .tool(whoami)
      .use(async (call, next) => {
        order.push(`outer:${call.name}`);
        call.ctx.auth = { subject: "ada" };
        const outcome = await next();
        order.push("outer:after");
        return outcome;
      })
      .use((call, next) => {
        order.push("inner");
        call.ctx.set(tenant, "acme");
        return next();
      });
    const outcome = final(await server.call("whoami", {}));
    assert.deepEqual(outcome.result.content, [{ type: "text", text: "ada@acme" }]);
    assert.deepEqual(order, ["outer:whoami", "inner", "outer:after"]);
  });

  it("can short-circuit with an outcome or a protocol error, before the tool is looked up", async () => {
    let ran = false;
    const tool = defineTool("secret").handle(() => {
      ran = true;
      return "s";
    });
    const server = createServer({ name: "t", version: "1" }).tool(tool).use((call) => {
      if (call.ctx.meta.headers.get("authorization") !== "Bearer ok") {
        throw new ProtocolError(ErrorCode.Unauthenticated, "a bearer token is required");
      }
      return Promise.resolve({ kind: "answer", result: { content: [text("from cache")] } });
    });
    await assert.rejects(server.call("secret", {}), { code: ErrorCode.Unauthenticated });
    await assert.rejects(callAny(server, "no_such_tool", {}), { code: ErrorCode.Unauthenticated });
    const cached = final(await server.call("secret", {}, { headers: { authorization: "Bearer ok" } }));
    assert.deepEqual(cached.result.content, [{ type: "text", text: "from cache" }]);
    assert.equal(ran, false);
  });

  it("tool middleware can rewrite arguments before validation", async () => {
    const server = fixtureServer().useTool((call, next) => {
      call.arguments = { ...(call.arguments as object), b: 1 };
      return next();
    });
    assert.deepEqual(final(await callAny(server, "add", { a: 1 })).result.structuredContent, { sum: 2 });
  });

  it("runs the request layer around the tool layer, with one context, and sees the method", async () => {
    const order: string[] = [];
    const whoami = defineTool("whoami").handle((_args, ctx) => `${ctx.auth?.subject}`);
    const server = createServer({ name: "t", version: "1" })
      .tool(whoami)
      .useTool(async (call, next) => {
        order.push(`tool:${call.name}:${call.ctx.auth?.subject}`);
        return await next();
      })
      .use(async (call, next) => {
        order.push(`request:${call.method}:${call.name}:${JSON.stringify(call.params)}`);
        call.ctx.auth = { subject: "ada" };
        return await next();
      });
    const outcome = final(await server.call("whoami", {}));
    assert.deepEqual(outcome.result.content, [{ type: "text", text: "ada" }]);
    assert.deepEqual(order, ['request:tools/call:whoami:{"name":"whoami","arguments":{}}', "tool:whoami:ada"]);
  });

  it("refuses next() called twice", async () => {
    const server = fixtureServer().use(async (_call, next) => {
      await next();
      return next();
    });
    await assert.rejects(server.call("add", { a: 1, b: 1 }), /more than once/);
  });
});

describe("server registry", () => {
  it("refuses two tools of the same name and removes tools at run time", async () => {
    const server = fixtureServer();
    assert.throws(() => server.tool(defineTool("add").handle(() => "")), /registered already/);
    assert.equal(server.removeTool("add"), true);
    assert.equal(server.removeTool("add"), false);
    await assert.rejects(server.call("add", { a: 1, b: 1 }), { code: ErrorCode.UnknownTool });
  });

  it("requires a name and a version", () => {
    assert.throws(() => createServer({} as never), /name, version/);
  });
});
