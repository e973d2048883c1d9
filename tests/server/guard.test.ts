import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { fixtureServer, withDefaults } from "../helpers/fixtures.ts";
import { toolsCall } from "../helpers/request.ts";

function call(url: string, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(toolsCall("add", { a: 1, b: 1 })),
  });
}

describe("DNS-rebinding protection", () => {
  const local = fixtureServer();

  it("answers loopback hosts and origins by default", async () => {
    for (const url of ["http://localhost:8000", "http://127.0.0.1:3000", "http://[::1]:8000"]) {
      assert.equal((await local.fetch(call(`${url}/mcp-lite/v1/calltools`))).status, 200, url);
      const withOrigin = call(`${url}/mcp-lite/v1/calltools`, { origin: "http://localhost:5173" });
      assert.equal((await local.fetch(withOrigin)).status, 200, url);
    }
  });

  it("refuses a foreign Host with 403", async () => {
    const response = await local.fetch(call("http://evil.example.com/mcp-lite/v1/calltools"));
    assert.equal(response.status, 403);
    const body = await response.json();
    assert.match(body.error.message, /evil\.example\.com.*allowedHosts/);
  });

  it("refuses a foreign Origin with 403, even on a loopback Host (a rebinding page)", async () => {
    for (const origin of ["http://evil.example.com", "https://localhost.evil.com", "null"]) {
      const response = await local.fetch(call("http://localhost:8000/mcp", { origin }));
      assert.equal(response.status, 403, origin);
    }
    assert.equal((await local.fetch(call("http://localhost:8000/mcp-lite/v1/calltools"))).status, 200);
  });

  it("serves configured public hosts and origins", async () => {
    const deployed = fixtureServer({ allowedHosts: ["api.example.com"], allowedOrigins: ["https://app.example.com"] });
    assert.equal((await deployed.fetch(call("https://api.example.com/mcp-lite/v1/calltools"))).status, 200);
    const browser = call("https://api.example.com/mcp-lite/v1/calltools", { origin: "https://app.example.com" });
    assert.equal((await deployed.fetch(browser)).status, 200);
    const other = call("https://api.example.com/mcp-lite/v1/calltools", { origin: "https://api.example.com" });
    assert.equal((await deployed.fetch(other)).status, 403, "only the listed origins once allowedOrigins is set");
    assert.equal((await deployed.fetch(call("http://localhost/mcp-lite/v1/calltools"))).status, 403);
  });

  it("accepts any host or origin when told to", async () => {
    const open = fixtureServer({ allowedHosts: "*", allowedOrigins: "*" });
    const response = await open.fetch(
      call("https://anything.example/mcp-lite/v1/calltools", { origin: "https://x.y" }),
    );
    assert.equal(response.status, 200);
  });
});

describe("DNS-rebinding protection on a deployed Cloudflare Worker", () => {
  const worker = fixtureServer();
  /** What workerd passes as `fetch`'s third argument (Workers Runtime APIs, Context). */
  const executionContext = { waitUntil() {}, passThroughOnException() {} };
  /** A request as Cloudflare's edge delivers it: `CF-Connecting-IP` names the visitor. */
  const fromEdge = (url: string, headers: Record<string, string> = {}) =>
    call(url, { "cf-connecting-ip": "203.0.113.7", ...headers });

  it("answers the host name Cloudflare routed the request by", async () => {
    for (const url of ["https://my-worker.example-sub.workers.dev", "https://mcp.example.com"]) {
      const response = await worker.fetch(fromEdge(`${url}/mcp-lite/v1/calltools`), {}, executionContext);
      assert.equal(response.status, 200, url);
    }
  });

  it("answers a page the Worker serves itself, and refuses another origin", async () => {
    const url = "https://my-worker.example-sub.workers.dev/mcp-lite/v1/calltools";
    const own = fromEdge(url, { origin: "https://my-worker.example-sub.workers.dev" });
    assert.equal((await worker.fetch(own, {}, executionContext)).status, 200);
    const other = fromEdge(url, { origin: "https://evil.example.com" });
    assert.equal((await worker.fetch(other, {}, executionContext)).status, 403);
  });

  it("keeps the loopback names for a request from this machine (wrangler dev)", async () => {
    for (const ip of ["127.0.0.1", "::1"]) {
      const local = call("http://evil.example.com:8787/mcp-lite/v1/calltools", { "cf-connecting-ip": ip });
      assert.equal((await worker.fetch(local, {}, executionContext)).status, 403, ip);
    }
    const loopback = call("http://localhost:8787/mcp-lite/v1/calltools", { "cf-connecting-ip": "127.0.0.1" });
    assert.equal((await worker.fetch(loopback, {}, executionContext)).status, 200);
  });

  it("keeps the check without Cloudflare's ExecutionContext (another platform's waitUntil)", async () => {
    const response = await worker.fetch(fromEdge("https://evil.example.com/mcp-lite/v1/calltools"), {}, {
      waitUntil() {},
    });
    assert.equal(response.status, 403);
  });

  it("checks a listed allowedHosts on Workers too", async () => {
    const listed = fixtureServer({ allowedHosts: ["mcp.example.com"] });
    const routed = await listed.fetch(fromEdge("https://mcp.example.com/mcp-lite/v1/calltools"), {}, executionContext);
    assert.equal(routed.status, 200);
    const other = fromEdge("https://my-worker.example-sub.workers.dev/mcp-lite/v1/calltools");
    assert.equal((await listed.fetch(other, {}, executionContext)).status, 403);
  });
});

describe("a refused or unknown request is answered in the shape of its route's wire", () => {
  const server = fixtureServer({ bindings: withDefaults(webtoolsBinding(), grpcBinding()) });
  const foreign = (path: string, body: unknown) =>
    new Request(`http://evil.example.com${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("a JSON-RPC error on MCP-lite and MCP", async () => {
    for (const [path, code] of [["/mcp-lite/v1/calltools", -32600], ["/mcp", -32000]] as const) {
      const response = await server.fetch(foreign(path, toolsCall("add", { a: 1, b: 1 })));
      assert.equal(response.status, 403, path);
      const body = await response.json();
      assert.equal(body.jsonrpc, "2.0");
      assert.equal(body.error.code, code, path);
    }
  });

  it("a Webtools error envelope on Webtools", async () => {
    const response = await server.fetch(foreign("/webtools/", { action: "add", request: { a: 1, b: 1 } }));
    assert.equal(response.status, 403);
    const body = await response.json();
    assert.equal(body.status, "error");
    assert.equal(body.error.code, "PERMISSION_DENIED");
    assert.match(body.error.message, /evil\.example\.com/);
  });

  it("a Connect error on the gRPC binding's routes", async () => {
    const response = await server.fetch(foreign("/mcplite.MCPLite/CallTool", { name: "add", arguments: { a: 1 } }));
    assert.equal(response.status, 403);
    const body = await response.json();
    assert.equal(body.code, "permission_denied");
    assert.match(body.message, /evil\.example\.com/);
  });

  it("a plain JSON 404 for a path no binding serves, whatever the host", async () => {
    for (const url of ["http://localhost/nowhere", "http://evil.example.com/nowhere"]) {
      const response = await server.fetch(new Request(url));
      assert.equal(response.status, 404);
      assert.deepEqual(await response.json(), {
        error: { code: "not_found", message: "Not found: no endpoint at this path" },
      });
    }
  });
});
