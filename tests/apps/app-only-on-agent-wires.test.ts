/**
 * A tool only an MCP App's view may call (SEP-1865, Visibility: `["app"]`) is neither listed nor run on
 * the wires an agent reads without a view host: Webtools (`webtoolsBinding()`) and the OpenAPI binding
 * (`openapiBinding()`). Its siblings are, and the view still calls it through MCP.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, defineTool } from "../../mod.ts";
import { defineApp } from "../../src/apps/mod.ts";
import { openapiBinding } from "../../src/bindings/openapi/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { withDefaults } from "../helpers/fixtures.ts";
import { BASE, modernRequest, post } from "../helpers/request.ts";

function server() {
  const view = defineApp("ui://mail/outbox").html("<p>outbox</p>");
  const purge = defineTool("purge").describe("Purge the outbox").ui(view, { visibility: ["app"] }).handle(() =>
    "purged"
  );
  const show = defineTool("show").describe("Show the outbox").ui(view).handle(() => "[]");
  return createServer({
    name: "mail",
    version: "1.0.0",
    bindings: withDefaults(webtoolsBinding(), openapiBinding({ base: "/api" })),
  }).tool(purge).tool(show);
}

describe("an app-only tool on the wires without a view", () => {
  it("is not an action of the Webtools metadata, and executing it is an unknown action", async () => {
    const app = server();
    const meta = await (await app.fetch(new Request(`${BASE}/webtools`))).json();
    assert.deepEqual(meta.actions.map((a: { name: string }) => a.name), ["show"]);
    const purged = await app.fetch(post("/webtools/", { action: "purge", request: {} }));
    assert.equal(purged.status, 404);
    const body = await purged.json();
    assert.match(JSON.stringify(body), /Webtool action not found: purge/);
    const shown = await app.fetch(post("/webtools/", { action: "show", request: {} }));
    assert.equal(shown.status, 200);
  });

  it("has no operation in the OpenAPI document, and POST /tools/{name} is 404", async () => {
    const app = server();
    const document = await (await app.fetch(new Request(`${BASE}/api/openapi.json`))).json();
    assert.deepEqual(Object.keys(document.paths).filter((path) => path.startsWith("/api/tools/")), ["/api/tools/show"]);
    const purged = await app.fetch(post("/api/tools/purge", {}));
    assert.equal(purged.status, 404);
    assert.match((await purged.json()).detail, /Tool not found: purge/);
    assert.equal((await app.fetch(post("/api/tools/show", {}))).status, 200);
  });

  it("stays callable where a view's host calls it: MCP tools/call", async () => {
    const app = server();
    const response = await app.fetch(modernRequest("tools/call", { name: "purge", arguments: {} }));
    const text = await response.text();
    assert.match(text, /purged/, text);
  });
});
