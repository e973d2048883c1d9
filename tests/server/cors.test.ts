/**
 * `createServer({ cors: cors({ origins }) })` (Fetch Standard §3.2): preflights for each route, actual answers
 * readable by the listed origins only, the Origin check consistent with it, no change without the option, and a
 * plain object of options refused.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { cors as connectCors } from "@connectrpc/connect";
import { cors, createServer, defineTool, mcpBinding, mcpLiteBinding, type ServerOptions } from "../../mod.ts";
import type { CorsOptions } from "../../src/types.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { CORS_EXPOSED_HEADERS, CORS_REQUEST_HEADERS } from "../../src/server/cors.ts";
import { post, toolsCall } from "../helpers/request.ts";

const APP = "https://app.example";
const add = defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => String(a + b));
const make = (options: CorsOptions, extra: Partial<ServerOptions> = {}) =>
  createServer({
    name: "cors",
    version: "1.0.0",
    cors: cors(options),
    bindings: [mcpLiteBinding(), mcpBinding(), webtoolsBinding(), grpcBinding()],
    ...extra,
  }).tool(add);

const preflight = (path: string, origin: string, method = "POST", headers = "content-type") =>
  new Request(`http://localhost${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers },
  });

describe("cors", () => {
  const server = make({ origins: ["https://App.example:443/"], credentials: true, maxAgeMs: 60_000 });

  it("answers a preflight from a listed origin with the route's methods and the headers it reads", async () => {
    const cases: [string, string][] = [
      ["/mcp", "POST, DELETE"], // a DELETE ends a 2025 session
      ["/mcp-lite/v1/calltools", "POST"],
      ["/webtools", "GET, HEAD, POST"],
      ["/webtools/1.0.0", "GET, HEAD"],
      ["/mcplite.MCPLite/CallTool", "POST, GET"],
    ];
    for (const [path, methods] of cases) {
      const response = await server.fetch(
        preflight(path, APP, "POST", "Content-Type, Mcp-Protocol-Version, Mcp-Param-Region, X-Unknown"),
      );
      assert.equal(response.status, 204, path);
      assert.equal(response.headers.get("access-control-allow-origin"), APP);
      assert.equal(response.headers.get("access-control-allow-methods"), methods);
      assert.equal(
        response.headers.get("access-control-allow-headers"),
        "content-type, mcp-protocol-version, mcp-param-region",
      );
      assert.equal(response.headers.get("access-control-max-age"), "60");
      assert.equal(response.headers.get("access-control-allow-credentials"), "true");
      assert.match(response.headers.get("vary") ?? "", /Origin, Access-Control-Request-Method/);
    }
  });

  it("refuses a preflight from another origin (403, no CORS headers), for a foreign Host, and 404 off-route", async () => {
    const other = await server.fetch(preflight("/mcp", "https://evil.example"));
    assert.equal(other.status, 403);
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    const foreignHost = await server.fetch(
      new Request("http://evil.example/mcp", {
        method: "OPTIONS",
        headers: { origin: APP, "access-control-request-method": "POST" },
      }),
    );
    assert.equal(foreignHost.status, 403);
    assert.equal((await server.fetch(preflight("/nowhere", APP))).status, 404);
  });

  it("marks actual answers (success, errors, refusals, 404) readable by the listed origin only", async () => {
    const call = (origin?: string, path = "/mcp-lite/v1/calltools") =>
      server.fetch(post(path, toolsCall("add", { a: 1, b: 2 }), origin === undefined ? {} : { origin }));
    const ok = await call(APP);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get("access-control-allow-origin"), APP);
    assert.equal(ok.headers.get("access-control-allow-credentials"), "true");
    assert.match(ok.headers.get("access-control-expose-headers") ?? "", /Mcp-Session-Id.*WWW-Authenticate.*ETag/);
    assert.equal(ok.headers.get("vary"), "Origin");
    const missing = await call(APP, "/nowhere");
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("access-control-allow-origin"), APP);
    const refused = await call("https://evil.example");
    assert.equal(refused.status, 403); // the Origin check
    assert.equal(refused.headers.get("access-control-allow-origin"), null);
    const serverToServer = await call();
    assert.equal(serverToServer.status, 200);
    assert.equal(serverToServer.headers.get("vary"), "Origin"); // caches must key on Origin
    assert.equal(serverToServer.headers.get("access-control-allow-origin"), null);
  });

  it("a listed origin passes the Origin check, but never widens the allowed hosts", async () => {
    const deployed = make({ origins: [APP] }, { allowedHosts: ["api.example"], allowedOrigins: [] });
    const request = (host: string) =>
      new Request(`https://${host}/mcp-lite/v1/calltools`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: APP },
        body: JSON.stringify(toolsCall("add", { a: 1, b: 1 })),
      });
    assert.equal((await deployed.fetch(request("api.example"))).status, 200);
    assert.equal((await deployed.fetch(request("app.example"))).status, 403);
  });

  it('"*" lets any origin read, without Vary, and cannot be combined with credentials', async () => {
    const open = make({ origins: "*" });
    const response = await open.fetch(
      post("/mcp-lite/v1/calltools", toolsCall("add", { a: 1, b: 2 }), { origin: "https://x.example" }),
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("access-control-allow-origin"), "*");
    assert.equal(response.headers.get("vary"), null);
    assert.throws(() => make({ origins: "*", credentials: true }), /cannot be combined/);
    for (const bad of ["https://app.example/path", "app.example", "null"]) {
      assert.throws(() => make({ origins: [bad] }), TypeError, bad);
    }
  });

  it("answers SSE and 304 readably, and a plain OPTIONS still reaches the route", async () => {
    const sse = await server.fetch(
      post("/mcp-lite/v1/calltools", toolsCall("add", { a: 1, b: 2 }), { origin: APP, accept: "text/event-stream" }),
    );
    assert.equal(sse.headers.get("content-type"), "text/event-stream");
    assert.equal(sse.headers.get("access-control-allow-origin"), APP);
    await sse.body?.cancel();
    const first = await server.fetch(new Request("http://localhost/webtools", { headers: { origin: APP } }));
    const etag = first.headers.get("etag")!;
    const again = await server.fetch(
      new Request("http://localhost/webtools", { headers: { origin: APP, "if-none-match": etag } }),
    );
    assert.equal(again.status, 304);
    assert.equal(again.headers.get("access-control-allow-origin"), APP);
    const plain = await server.fetch(new Request("http://localhost/mcp", { method: "OPTIONS" }));
    assert.equal(plain.status, 405); // the route's own answer to OPTIONS
  });

  it("allows every request header Connect's clients send and exposes every header they read", () => {
    for (const header of connectCors.allowedHeaders) {
      assert.ok(CORS_REQUEST_HEADERS.includes(header.toLowerCase()), header);
    }
    for (const header of connectCors.exposedHeaders) assert.ok(CORS_EXPOSED_HEADERS.includes(header), header);
  });

  it("takes what cors() builds: a plain object of options is refused with a TypeError naming the fix", () => {
    const plain = { origins: [APP] } as unknown as ServerOptions["cors"];
    assert.throws(() => createServer({ name: "plain", version: "1.0.0", cors: plain }), (error: Error) => {
      assert.ok(error instanceof TypeError, String(error));
      assert.match(error.message, /^createServer\(\{ cors \}\) takes cors\(\{ origins \}\)/);
      assert.ok(error.message.includes('import { cors } from "@mcplite/sdk"'), error.message);
      return true;
    });
  });

  it("without the option, the server sends no CORS headers and answers OPTIONS through the route", async () => {
    const plain = createServer({ name: "plain", version: "1.0.0" }).tool(add);
    const response = await plain.fetch(preflight("/mcp", "http://localhost"));
    assert.equal(response.headers.get("access-control-allow-origin"), null);
    assert.equal(response.status, 405);
  });
});
