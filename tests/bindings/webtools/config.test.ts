import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, type ServerOptions } from "../../../mod.ts";
import { webtoolsBinding } from "../../../src/bindings/webtools/mod.ts";
import { BASE, legacyRequest, modernRequest, post, toolsCall } from "../../helpers/request.ts";
import { readJsonRpc } from "../../helpers/sse.ts";
import { withDefaults } from "../../helpers/fixtures.ts";

/** Reports the configuration it received, so each wire's resolution can be compared. */
const forecast = defineTool("forecast")
  .describe("Tomorrow's forecast")
  .input(v.object({ city: v.string() }))
  .config(v.object({
    apiKey: v.pipe(v.string(), v.minLength(4)),
    units: v.optional(v.picklist(["metric", "imperial"]), "metric"),
  }))
  .handle(({ city }, ctx) => ({ city, units: ctx.config.units, key: ctx.config.apiKey.slice(0, 4) }));

function weather(options: Partial<ServerOptions> = {}) {
  return createServer({ name: "weather", version: "3.0.0", ...options, bindings: withDefaults(webtoolsBinding()) })
    .tool(forecast);
}

async function execute(app: { fetch(r: Request): Promise<Response> }, body: unknown) {
  const response = await app.fetch(post("/webtools/", body));
  return { status: response.status, body: await response.json() };
}

async function metadata(app: { fetch(r: Request): Promise<Response> }) {
  return await (await app.fetch(new Request(`${BASE}/webtools/`))).json();
}

describe("configuration on Webtools", () => {
  it("lists the config schema and the defaults it declares", async () => {
    const meta = await metadata(weather());
    assert.deepEqual(meta.configSchema, {
      type: "object",
      properties: {
        apiKey: { type: "string", minLength: 4 },
        units: { type: "string", enum: ["metric", "imperial"], default: "metric" },
      },
      required: ["apiKey"],
    });
    assert.deepEqual(meta.defaultConfig, { units: "metric" });
  });

  it("validates the caller's config with the defaults applied and hands it to the handler", async () => {
    const app = weather();
    const defaulted = await execute(app, {
      action: "forecast",
      config: { apiKey: "abcd-1" },
      request: { city: "Oslo" },
    });
    assert.deepEqual(defaulted, {
      status: 200,
      body: { status: "ok", data: { city: "Oslo", units: "metric", key: "abcd" } },
    });
    const chosen = await execute(app, {
      action: "forecast",
      config: { apiKey: "wxyz", units: "imperial" },
      request: { city: "Oslo" },
    });
    assert.equal(chosen.body.data.units, "imperial");
  });

  it("answers CONFIG_ERROR (400) naming the failing config paths", async () => {
    const app = weather();
    const missing = await execute(app, { action: "forecast", request: { city: "Oslo" } });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, "CONFIG_ERROR");
    assert.match(missing.body.error.message, /apiKey/);
    const wrong = await execute(app, {
      action: "forecast",
      config: { apiKey: "k", units: "kelvin" },
      request: { city: "x" },
    });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body.error.details.issues.map((i: { path: string }) => i.path), ["apiKey", "units"]);
    for (const config of ["metric", [1], null]) {
      const shape = await execute(app, { action: "forecast", config, request: { city: "x" } });
      assert.equal(shape.status, 400);
      assert.equal(shape.body.error.code, "CONFIG_ERROR");
    }
  });

  it("keeps the server's own settings fixed: they win over the caller's and are never published", async () => {
    const app = weather({ settings: { apiKey: "server-secret" } });
    const meta = await metadata(app);
    assert.deepEqual(Object.keys(meta.configSchema.properties), ["units"]);
    assert.equal(meta.configSchema.required, undefined);
    assert.doesNotMatch(JSON.stringify(meta), /server-secret/);
    const call = await execute(app, {
      action: "forecast",
      config: { apiKey: "mine", units: "imperial" },
      request: { city: "x" },
    });
    assert.deepEqual(call.body.data, { city: "x", units: "imperial", key: "serv" });
  });

  it("merges the server-level config (server.config()) with each tool's", async () => {
    const where = defineTool("where").handle((_args, ctx) => ctx.config as Record<string, unknown>);
    const app = createServer({
      name: "r",
      version: "1.0.0",
      settings: { region: "eu" },
      bindings: withDefaults(webtoolsBinding()),
    })
      .config(v.object({ region: v.picklist(["eu", "us"]), tenant: v.optional(v.string(), "public") }))
      .tool(where)
      .tool(forecast);
    const meta = await metadata(app);
    assert.deepEqual(Object.keys(meta.configSchema.properties), ["tenant", "apiKey", "units"]);
    assert.deepEqual(meta.defaultConfig, { tenant: "public", units: "metric" });
    assert.deepEqual((await execute(app, { action: "where", config: { tenant: "acme" } })).body.data, {
      region: "eu",
      tenant: "acme",
    });
    const both = await execute(app, { action: "forecast", config: { apiKey: "k-123" }, request: { city: "x" } });
    assert.equal(both.status, 200);
  });

  it("applies the defaults of a raw JSON Schema config", async () => {
    const raw = defineTool("raw")
      .config({ type: "object", properties: { depth: { type: "number", default: 2 } } })
      .handle((_args, ctx) => ctx.config as Record<string, unknown>);
    const app = createServer({ name: "r", version: "1.0.0", bindings: withDefaults(webtoolsBinding()) }).tool(raw);
    assert.deepEqual((await execute(app, { action: "raw" })).body.data, { depth: 2 });
    assert.deepEqual((await execute(app, { action: "raw", config: { depth: 5, other: 1 } })).body.data, { depth: 5 });
    assert.equal((await execute(app, { action: "raw", config: { depth: "deep" } })).body.error.code, "CONFIG_ERROR");
  });
});

describe("configuration on the other wires comes from the server's settings", () => {
  const settings = { apiKey: "srv-key", units: "imperial" };

  it("on MCP-lite", async () => {
    const app = weather({ settings });
    const { result } = await (await app.fetch(post("/mcp-lite/v1/calltools", toolsCall("forecast", { city: "Rome" }))))
      .json();
    assert.deepEqual(result.structuredContent, { city: "Rome", units: "imperial", key: "srv-" });
  });

  it("on MCP 2026-07-28 and 2025-11-25", async () => {
    const app = weather({ settings: { apiKey: "srv-key" } });
    const modern = await readJsonRpc(
      await app.fetch(modernRequest("tools/call", { name: "forecast", arguments: { city: "Rome" } })),
    );
    assert.deepEqual(modern.result.structuredContent, { city: "Rome", units: "metric", key: "srv-" });
    const legacy = await readJsonRpc(
      await app.fetch(legacyRequest("tools/call", { name: "forecast", arguments: { city: "Rome" } })),
    );
    assert.deepEqual(legacy.result.structuredContent, { city: "Rome", units: "metric", key: "srv-" });
  });

  it("in process", async () => {
    const outcome = await weather({ settings }).call("forecast", { city: "Rome" });
    assert.ok(outcome.kind === "answer");
    assert.deepEqual(outcome.result.structuredContent, { city: "Rome", units: "imperial", key: "srv-" });
  });

  it("never from the caller: arguments that look like config stay arguments", async () => {
    const app = weather({ settings });
    const args = { city: "Rome", apiKey: "evil", config: { apiKey: "evil" } };
    const { result } = await (await app.fetch(post("/mcp-lite/v1/calltools", toolsCall("forecast", args)))).json();
    assert.equal(result.structuredContent.key, "srv-");
  });

  it("masks settings that do not satisfy the schema as an internal error, reporting the detail", async () => {
    const seen: unknown[] = [];
    const app = weather({ settings: { apiKey: "k" }, onError: (error) => seen.push(error) });
    const body = await (await app.fetch(post("/mcp-lite/v1/calltools", toolsCall("forecast", { city: "Rome" }))))
      .json();
    assert.equal(body.error.code, -32603);
    assert.equal(body.error.message, "Internal error");
    assert.match(String(seen[0]), /settings do not satisfy the configuration of tool forecast: apiKey/);
  });

  it("leaves ctx.config undefined when nothing declares a configuration", async () => {
    const plain = defineTool("plain").handle((_args, ctx) => ({ config: ctx.config === undefined }));
    const outcome = await createServer({ name: "p", version: "1", settings: { a: 1 } }).tool(plain).call("plain", {});
    assert.ok(outcome.kind === "answer");
    assert.deepEqual(outcome.result.structuredContent, { config: true });
  });

  it("refuses a config schema that is not an object", () => {
    assert.throws(() => defineTool("x").config(v.string() as never), /config: the schema must describe an object/);
    assert.throws(() => createServer({ name: "x", version: "1" }).config({ type: "string" }), /server config/);
  });
});
