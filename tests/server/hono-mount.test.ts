/**
 * The README's Hono mount, `app.all("/mcp/*", mount(server.fetch))` (hono/mount), on this runtime with no
 * execution context (Bun, Deno and Node — Node's run is in tests/node/node22.test.ts — where reading
 * Hono's `c.executionCtx` throws) and with a Worker's `(env, ctx)`: MCP-lite and MCP answer under `/mcp`,
 * and a Worker's env and `waitUntil` reach the server.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { type ExecutionContext, Hono } from "hono";
import { mount } from "hono/mount";
import { createServer, defineTool, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { modernRequest, post, toolsCall } from "../helpers/request.ts";

const server = createServer({ name: "hono", version: "1.0.0", bindings: [mcpLiteBinding(), mcpBinding()] })
  .tool(
    defineTool("add").describe("Adds").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) =>
      String(a + b)
    ),
  )
  .tool(defineTool("region").describe("The env's REGION").handle((_input, ctx) => String(ctx.env?.REGION)));

const app = new Hono();
app.all("/mcp/*", mount(server.fetch));

/** An in-process request (tests/helpers/request.ts), moved under /mcp. */
function under(request: Request): Request {
  const url = new URL(request.url);
  return new Request(`${url.origin}/mcp${url.pathname}`, request);
}

describe("the Hono mount", () => {
  it("answers MCP-lite and MCP under /mcp with no execution context", async () => {
    const lite = await app.fetch(under(post("/mcp-lite/v1/calltools", toolsCall("add", { a: 1, b: 2 }))));
    assert.equal(lite.status, 200);
    assert.equal((await lite.json()).result.content[0].text, "3");
    const mcp = await app.fetch(under(modernRequest("tools/call", { name: "add", arguments: { a: 2, b: 3 } })));
    assert.equal(mcp.status, 200);
    assert.equal((await mcp.json()).result.content[0].text, "5");
  });

  it("hands on a Worker's env and execution context", async () => {
    const waited: Promise<unknown>[] = [];
    const ctx = {
      waitUntil: (work: Promise<unknown>) => void waited.push(work),
      passThroughOnException() {},
      props: {},
    } as ExecutionContext;
    const answer = await app.fetch(
      under(post("/mcp-lite/v1/calltools", toolsCall("region"))),
      { REGION: "eu" },
      ctx,
    );
    assert.equal((await answer.json()).result.content[0].text, "eu");
  });
});
