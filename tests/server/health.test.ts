/**
 * `createServer({ health })`: `GET /healthz` answers load balancers with 200 and `{ status: "ok", name,
 * version, uptime }` before the gate (no token, any Host: probes address the server by IP), and nothing is
 * served there unless asked for.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, serve } from "../../mod.ts";
import { protectedResource } from "../../src/auth/mod.ts";

/** A protected server: every route needs a bearer token this never accepts. */
function protectedServer(health: boolean | { path?: string } | undefined) {
  return createServer({
    name: "probed",
    version: "2.1.0",
    health,
    auth: protectedResource({
      resource: "https://mcp.example.com",
      authorizationServers: ["https://auth.example.com"],
      verify: () => undefined,
    }),
  });
}

describe("createServer({ health })", () => {
  it("answers GET /healthz with 200 { status, name, version, uptime }, without a token and for an IP Host", async () => {
    const server = protectedServer(true);
    const response = await server.fetch(new Request("http://10.0.0.5:8080/healthz"));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal(response.headers.get("cache-control"), "no-store");
    const body = await response.json();
    assert.deepEqual(Object.keys(body).sort(), ["name", "status", "uptime", "version"]);
    assert.equal(body.status, "ok"); // what probes that read a body look for
    assert.equal(body.name, "probed");
    assert.equal(body.version, "2.1.0");
    assert.ok(Number.isInteger(body.uptime) && body.uptime >= 0);
    // The gate still guards everything else on that Host.
    const mcp = await server.fetch(new Request("http://10.0.0.5:8080/mcp", { method: "POST", body: "{}" }));
    assert.ok(mcp.status >= 400, String(mcp.status));
    await mcp.body?.cancel();
  });

  it("serves another path with { path }, HEAD without a body, and 405 with Allow for other methods", async () => {
    const server = protectedServer({ path: "livez" });
    assert.equal((await server.fetch(new Request("http://localhost/livez"))).status, 200);
    // A benchmark's contract (TM Dev Lab's MCP Server Performance Benchmark v2, ADDING_SERVERS.md): GET /health, 2xx,
    // `{"status":"ok"}`.
    const contract = await protectedServer({ path: "/health" }).fetch(new Request("http://10.0.0.5:8080/health"));
    assert.equal(contract.status, 200);
    assert.equal((await contract.json()).status, "ok");
    const head = await server.fetch(new Request("http://localhost/livez", { method: "HEAD" }));
    assert.equal(head.status, 200);
    assert.equal(await head.text(), "");
    const post = await server.fetch(new Request("http://localhost/livez", { method: "POST", body: "{}" }));
    assert.equal(post.status, 405);
    assert.equal(post.headers.get("allow"), "GET, HEAD");
    const other = await server.fetch(new Request("http://localhost/healthz"));
    assert.equal(other.status, 404);
    await other.body?.cancel();
  });

  it("is off by default: /healthz is not served", async () => {
    const response = await createServer({ name: "quiet", version: "1.0.0" }).fetch(
      new Request("http://localhost/healthz"),
    );
    assert.equal(response.status, 404);
    await response.body?.cancel();
  });

  it("answers over a real listener on 127.0.0.1", async () => {
    const listener = await serve(createServer({ name: "live", version: "1.0.0", health: true }), {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
    });
    try {
      const response = await fetch(`${listener.url}/healthz`);
      assert.equal(response.status, 200);
      assert.equal((await response.json()).name, "live");
    } finally {
      await listener.close();
    }
  });
});
