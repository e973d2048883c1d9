/**
 * CORS from a real browser: headless Chromium (Debian's package, driven by `playwright-core`) loads a
 * page from an allowed origin and one from another origin, each calling our server (under `/api`)
 * with `fetch`: MCP 2026-07-28 with its custom headers (a preflight), an ETag revalidation, MCP-lite
 * as JSON, SSE and an error, and Connect. From the allowed origin all succeed; from the other, the
 * browser refuses every one.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { chromium } from "playwright-core";
import { cors, createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import type { Listener } from "../../src/types.ts";
import { missingOutsideCi } from "../helpers/once-per-run.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const missing = missingOutsideCi(
  existsSync(CHROMIUM)
    ? false
    : `no Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH`,
);
if (missing) console.error(`cors-browser: skipped: ${missing}`);

/** Serves one empty page, so that the browser has an origin to call from. */
function pageServer(): Promise<{ origin: string; server: HttpServer }> {
  return new Promise((resolve) => {
    const server = createHttpServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>page</title>");
    });
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as { port: number };
      resolve({ origin: `http://127.0.0.1:${address.port}`, server });
    });
  });
}

/** What the page does: six calls, each reported as what it read or the error it got. */
const SCRIPT = async (api: string): Promise<Record<string, string>> => {
  const out: Record<string, string> = {};
  const json = { "content-type": "application/json" };
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const step = async (name: string, run: () => Promise<string>) => {
    try {
      out[name] = await run();
    } catch (error) {
      out[name] = `${(error as Error).name}`;
    }
  };
  await step("mcp call", async () => {
    const response = await fetch(`${api}/mcp`, {
      method: "POST",
      headers: {
        ...json,
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "add",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "add", arguments: { a: 2, b: 3 }, _meta: meta },
      }),
    });
    return (await response.json()).result.content[0].text;
  });
  await step("etag", async () => {
    const list = (headers: Record<string, string>) =>
      fetch(`${api}/mcp`, {
        method: "POST",
        headers: {
          ...json,
          ...headers,
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/list",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta } }),
      });
    const first = await list({});
    const etag = first.headers.get("etag");
    if (etag === null) return "no etag";
    return String((await list({ "if-none-match": etag })).status);
  });
  const lite = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api}/mcp-lite/v1/calltools`, {
      method: "POST",
      headers: { ...json, ...headers },
      body: JSON.stringify(body),
    });
  await step("lite json", async () => {
    const response = await lite({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "add", arguments: { a: 1, b: 1 } },
    });
    return (await response.json()).result.content[0].text;
  });
  await step("lite sse", async () => {
    const response = await lite(
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "add", arguments: { a: 4, b: 4 } } },
      { accept: "text/event-stream" },
    );
    return (await response.text()).includes("event: done") ? "done" : "no done event";
  });
  await step("lite error", async () => {
    const response = await lite({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "nope" } });
    return String((await response.json()).error.code);
  });
  await step("connect", async () => {
    const response = await fetch(`${api}/mcplite.MCPLite/CallTool`, {
      method: "POST",
      headers: { ...json, "connect-protocol-version": "1" },
      body: JSON.stringify({ name: "add", arguments: { a: 10, b: 5 } }),
    });
    return (await response.json()).result.content[0].text;
  });
  return out;
};

describe("CORS in a real browser", { skip: missing }, () => {
  let api: Listener;
  let allowed: { origin: string; server: HttpServer };
  let other: { origin: string; server: HttpServer };
  before(async () => {
    allowed = await pageServer();
    other = await pageServer();
    const server = createServer({
      name: "browser",
      version: "1.0.0",
      basePath: "/api",
      cors: cors({ origins: [allowed.origin] }),
      allowedOrigins: [], // only the CORS origin passes the Origin check
      bindings: [mcpLiteBinding(), mcpBinding(), grpcBinding()],
    }).tool(defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => String(a + b)));
    api = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await api?.close();
    allowed?.server.close();
    other?.server.close();
  });

  it("lets the allowed origin's page call every wire, and the browser refuses the other's", async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox"],
      timeout: 15_000,
    });
    try {
      const run = async (origin: string) => {
        const page = await browser.newPage();
        // Bounds for a loaded machine (a local page, yet 5 s to load it left little room), not measures.
        page.setDefaultTimeout(20_000);
        await page.goto(origin, { timeout: 20_000 });
        return await page.evaluate(SCRIPT, `${api.url}/api`);
      };
      assert.deepEqual(await run(allowed.origin), {
        "mcp call": "5",
        etag: "304",
        "lite json": "2",
        "lite sse": "done",
        "lite error": "-32601",
        connect: "15",
      });
      const refused = await run(other.origin);
      for (const [name, outcome] of Object.entries(refused)) assert.equal(outcome, "TypeError", name);
    } finally {
      await browser.close();
    }
  });
});
