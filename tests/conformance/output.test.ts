/**
 * A declared `.output()` is enforced on every wire: a result that does not conform never reaches the
 * caller. The mismatch goes to `onError`; the caller gets a masked internal error (MCP 2025-06-18
 * onward, Tools: structured results MUST conform to the output schema).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { ErrorCode } from "../../src/errors/mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { OutputMismatchError } from "../../src/core/call/output.ts";
import { callAny } from "../helpers/outcome.ts";
import { legacyRequest, modernRequest, post, toolsCall } from "../helpers/request.ts";
import { readJsonRpc } from "../helpers/sse.ts";

const Sum = v.object({ sum: v.number() });
/** Declares `{ sum: number }` and returns what it is told to, as a buggy handler would. */
const liar = defineTool("liar")
  .input(v.object({ kind: v.picklist(["string", "infinity", "nothing", "ok"]), a: v.optional(v.number(), 1) }))
  .output(Sum)
  .handle(({ kind, a }) => {
    switch (kind) {
      case "string":
        return { sum: "not a number" } as never;
      case "infinity":
        return { sum: a * Number.MAX_VALUE * 2 }; // overflows to Infinity: JSON would carry null
      case "nothing":
        return "no structured content" as never;
      default:
        return { sum: 2 };
    }
  });
/** The same lie from a stream's final value. */
const streamingLiar = defineTool("streaming_liar").output(Sum).stream(async function* () {
  yield "working";
  return { sum: "late" } as never;
});

function server(reports: unknown[]) {
  return createServer({
    name: "output",
    version: "1.0.0",
    onError: (error) => reports.push(error),
    bindings: [mcpLiteBinding(), mcpBinding(), webtoolsBinding(), grpcBinding()],
  }).tool(liar).tool(streamingLiar);
}

type Verdict = { masked: true } | { ok: unknown };

/** Each wire's call, reduced to: did the caller get a masked internal error, or a result? */
const wires: Record<string, (s: ReturnType<typeof server>, name: string, args: unknown) => Promise<Verdict>> = {
  "in process": async (s, name, args) => {
    try {
      const outcome = await callAny(s, name, args);
      return { ok: outcome.kind === "answer" ? outcome.result.structuredContent : outcome };
    } catch (error) {
      assert.equal((error as { code?: string }).code, ErrorCode.Internal);
      assert.equal((error as Error).message, "Internal error");
      return { masked: true };
    }
  },
  "MCP-lite": async (s, name, args) => {
    const body = await (await s.fetch(post("/mcp-lite/v1/calltools", toolsCall(name, args)))).json();
    if (body.error) {
      assert.deepEqual(body.error, { code: -32603, message: "Internal error", data: { code: "internal" } });
      return { masked: true };
    }
    return { ok: body.result.structuredContent };
  },
  "MCP 2026-07-28": async (s, name, args) => {
    const body = await readJsonRpc(
      await s.fetch(modernRequest("tools/call", { name, arguments: args })),
    );
    if (body.error) {
      assert.deepEqual(body.error, { code: -32603, message: "Internal error", data: { code: "internal" } });
      return { masked: true };
    }
    return { ok: body.result.structuredContent };
  },
  "MCP 2025-11-25": async (s, name, args) => {
    const body = await readJsonRpc(
      await s.fetch(legacyRequest("tools/call", { name, arguments: args })),
    );
    if (body.error) {
      assert.deepEqual(body.error, { code: -32603, message: "Internal error", data: { code: "internal" } });
      return { masked: true };
    }
    return { ok: body.result.structuredContent };
  },
  Webtools: async (s, name, args) => {
    const response = await s.fetch(post("/webtools/", { action: name, request: args }));
    const body = await response.json();
    if (body.status === "error") {
      assert.equal(response.status, 500);
      assert.deepEqual(body.error, { code: "INTERNAL_ERROR", message: "Internal error", reason: "internal" });
      return { masked: true };
    }
    return { ok: body.data };
  },
  "gRPC (Connect JSON)": async (s, name, args) => {
    const response = await s.fetch(post("/mcplite.MCPLite/CallTool", { name, arguments: args }));
    const body = await response.json();
    if (response.status !== 200) {
      assert.equal(body.code, "internal");
      assert.equal(body.message, "Internal error");
      return { masked: true };
    }
    return { ok: body.result.structuredContent };
  },
};

describe("a declared output schema is enforced on every wire", () => {
  const cases: [string, string, unknown][] = [
    ["a value of the wrong type", "liar", { kind: "string" }],
    ["a number JSON cannot carry (an overflow to Infinity)", "liar", { kind: "infinity" }],
    ["no structured content at all", "liar", { kind: "nothing" }],
    ["a stream's final value of the wrong type", "streaming_liar", {}],
  ];
  for (const [wire, call] of Object.entries(wires)) {
    for (const [what, name, args] of cases) {
      it(`${wire}: ${what} → a masked internal error, reported to onError`, async () => {
        const reports: unknown[] = [];
        assert.deepEqual(await call(server(reports), name, args), { masked: true });
        assert.equal(reports.length, 1);
        assert.ok(reports[0] instanceof OutputMismatchError, String(reports[0]));
        assert.equal((reports[0] as OutputMismatchError).tool, name);
      });
    }
    it(`${wire}: a conforming result passes`, async () => {
      const reports: unknown[] = [];
      assert.deepEqual(await call(server(reports), "liar", { kind: "ok" }), { ok: { sum: 2 } });
      assert.deepEqual(reports, []);
    });
  }
});
