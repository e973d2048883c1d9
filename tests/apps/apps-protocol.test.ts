/**
 * MCP Apps on the wire (SEP-1865): a tool with a view lists `_meta.ui` (and the flat legacy key) on
 * 2026-07-28 and 2025; its `ui://` resource is read as `text/html;profile=mcp-app` with the CSP the
 * view declared; the extension is advertised over HTTP and stdio; app-only tools say so; the tool's
 * structured result is what it would be without a view; a tool reads whether the client renders views.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineResource, defineTool } from "../../mod.ts";
import { defineApp, rendersApps } from "../../src/apps/mod.ts";
import { forecastView, server as weather } from "../../examples/apps/server.ts";
import { legacy, modern } from "../bindings/mcp/mcp-helpers.ts";
import { pipeServer } from "../helpers/stdio.ts";

const UI = "io.modelcontextprotocol/ui";
const MIME = "text/html;profile=mcp-app";
const APP_CLIENT = { extensions: { [UI]: { mimeTypes: [MIME] } } };

describe("MCP Apps: tools with views", () => {
  it("lists _meta.ui and the legacy ui/resourceUri on 2026-07-28 and on 2025, app-only tools included", async () => {
    const expected = {
      forecast: { ui: { resourceUri: "ui://weather/forecast", visibility: ["model", "app"] } },
      refresh_forecast: { ui: { resourceUri: "ui://weather/forecast", visibility: ["app"] } },
    };
    for (const answer of [await modern(weather, "tools/list"), await legacy(weather, "tools/list")]) {
      const tools = answer.body.result.tools as { name: string; _meta: Record<string, unknown> }[];
      assert.deepEqual(tools.map((t) => t.name), ["forecast", "refresh_forecast"]);
      for (const tool of tools) {
        const want = expected[tool.name as keyof typeof expected];
        assert.deepEqual(tool._meta, { ...want, "ui/resourceUri": "ui://weather/forecast" });
      }
    }
  });

  it("reads the view as text/html;profile=mcp-app with its CSP, and lists it with the same _meta.ui", async () => {
    const ui = { csp: { connectDomains: ["https://api.open-meteo.com"] }, prefersBorder: true };
    for (const send of [modern, legacy]) {
      const read = (await send(weather, "resources/read", { uri: "ui://weather/forecast" })).body.result;
      assert.equal(read.contents.length, 1);
      const [view] = read.contents;
      assert.equal(view.uri, "ui://weather/forecast");
      assert.equal(view.mimeType, MIME);
      assert.deepEqual(view._meta, { ui });
      assert.match(view.text, /^<!doctype html>/);
      assert.match(view.text, /<script type="module">[^<]*ui\/initialize/, "the bundled view script is inline");
      const listed = (await send(weather, "resources/list")).body.result.resources;
      assert.deepEqual(listed, [{
        uri: "ui://weather/forecast",
        name: "weather/forecast",
        title: "Forecast",
        description: "The week's temperatures as a table and a chart",
        mimeType: MIME,
        _meta: { ui },
      }]);
    }
  });

  it("advertises the extension in server/discover, and in initialize over HTTP and stdio", async () => {
    const discover = (await modern(weather, "server/discover")).body.result;
    assert.deepEqual(discover.capabilities.extensions[UI], { mimeTypes: [MIME] });
    const init = { protocolVersion: "2025-11-25", capabilities: APP_CLIENT, clientInfo: { name: "t", version: "1" } };
    const http = (await legacy(weather, "initialize", init)).body.result;
    assert.deepEqual(http.capabilities.extensions[UI], { mimeTypes: [MIME] });
    const piped = pipeServer(weather);
    try {
      piped.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: init });
      const answer = await piped.answer(1);
      const result = answer.result as { capabilities: { extensions: Record<string, unknown> } };
      assert.deepEqual(result.capabilities.extensions[UI], { mimeTypes: [MIME] });
    } finally {
      await piped.end();
    }
  });

  it("advertises nothing of it on a server without views", async () => {
    const plain = createServer({ name: "plain", version: "1.0.0" }).tool(
      defineTool("ping").describe("Pong").handle(() => "pong"),
    );
    const discover = (await modern(plain, "server/discover")).body.result;
    assert.equal(discover.capabilities.extensions?.[UI], undefined);
  });

  it("gives the structured result unchanged, and tells the tool whether the client renders views", async () => {
    const call = (capabilities: Record<string, unknown>) =>
      modern(weather, "tools/call", {
        name: "forecast",
        arguments: { city: "Oslo", days: 2 },
        _meta: { "io.modelcontextprotocol/clientCapabilities": capabilities },
      });
    const withViews = (await call(APP_CLIENT)).body.result;
    const textOnly = (await call({})).body.result;
    assert.deepEqual(withViews.structuredContent, textOnly.structuredContent);
    assert.equal(withViews.structuredContent.city, "Oslo");
    assert.equal(withViews.structuredContent.days.length, 2);
    assert.match(withViews.content[0].text, /shown in the forecast view/);
    assert.doesNotMatch(textOnly.content[0].text, /forecast view/);
  });

  it("registers a view shared by tools once, and refuses another resource on its URI", () => {
    const board = defineApp("ui://scores/board").html("<!doctype html><p>scores</p>");
    const a = defineTool("a").describe("A").ui(board).handle(() => "a");
    const b = defineTool("b").describe("B").ui(board, { visibility: ["app"] }).handle(() => "b");
    const server = createServer({ name: "s", version: "1" }).tool(a).tool(b);
    assert.ok(server);
    const clash = createServer({ name: "s", version: "1" })
      .resource(defineResource("ui://scores/board").read(() => "other"));
    assert.throws(() => clash.tool(a), /ui:\/\/scores\/board is registered already/);
  });

  it("refuses a view without HTML, a URI outside ui://, and an unknown visibility", () => {
    assert.throws(() => defineTool("x").ui(defineApp("ui://x/y")), /give the view its HTML/);
    assert.throws(() => defineApp("https://example.com/view"), /ui:\/\//);
    const view = defineApp("ui://x/y").html("<p>x</p>");
    assert.throws(() => defineTool("x").ui(view, { visibility: [] }), /visibility/);
    assert.throws(() => defineApp("ui://x/y").csp({ connectDomains: ["https://a.example; script-src *"] }), /origin/);
  });

  it("reads the declared MIME types on ctx.meta", () => {
    assert.equal(rendersApps({ wire: "mcp", headers: new Headers(), appMimeTypes: [MIME] }), true);
    assert.equal(rendersApps({ wire: "mcp", headers: new Headers() }), false);
    const typed = defineTool("typed").describe("Typed").output(v.object({ n: v.number() })).ui(forecastView).handle(
      () => ({ n: 1 }),
    );
    assert.equal(typed.resources?.[0], forecastView.resource);
  });
});
