import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fixtureServer } from "../helpers/fixtures.ts";
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
    const response = await open.fetch(call("https://anything.example/mcp-lite/v1/calltools", { origin: "https://x.y" }));
    assert.equal(response.status, 200);
  });
});
