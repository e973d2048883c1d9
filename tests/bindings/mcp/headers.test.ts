import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, mcpLiteBinding } from "../../../mod.ts";
import { decodeHeaderValue } from "../../../src/bindings/mcp/headers.ts";
import { modernMeta, post } from "../../helpers/request.ts";
import { modern } from "./mcp-helpers.ts";

const b64 = (text: string) => `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}?=`;

const route = defineTool("route")
  .describe("Routes by region")
  .input(v.object({
    region: v.pipe(v.string(), v.metadata({ "x-mcp-header": "Region" })),
    priority: v.optional(v.pipe(v.number(), v.integer(), v.metadata({ "x-mcp-header": "Priority" }))),
    verbose: v.optional(v.pipe(v.boolean(), v.metadata({ "x-mcp-header": "Verbose" }))),
    note: v.optional(v.string()),
  }))
  .handle(({ region }) => `routed to ${region}`);

const server = createServer({ name: "headers", version: "1.0.0" }).tool(route);

function call(args: Record<string, unknown>, headers: Record<string, string>) {
  return modern(server, "tools/call", { name: "route", arguments: args }, headers);
}

describe("Mcp-Method and Mcp-Name", () => {
  it("rejects a missing or different Mcp-Method with 400/-32020, values being case-sensitive", async () => {
    for (const method of [undefined, "prompts/list", "TOOLS/LIST"]) {
      const headers: Record<string, string> = method === undefined ? {} : { "mcp-method": method };
      const request = new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "mcp-protocol-version": "2026-07-28",
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/list",
          params: {
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      });
      const response = await server.fetch(request);
      assert.equal(response.status, 400, String(method));
      assert.equal((await response.json()).error.code, -32020);
    }
  });

  it("accepts header names in any case and values with surrounding whitespace", async () => {
    for (const name of ["MCP-METHOD", "mcp-method", "Mcp-Method"]) {
      const response = await server.fetch(
        post("/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: modernMeta() } }, {
          "MCP-Protocol-Version": "2026-07-28",
          [name]: "tools/list",
        }),
      );
      assert.equal(response.status, 200, name);
      await response.body?.cancel();
    }
    const spaced = await call({ region: "eu" }, { "mcp-name": "  route\t", "mcp-param-region": " eu " });
    assert.equal(spaced.body.result.content[0].text, "routed to eu");
  });

  it("rejects a missing, different or badly encoded Mcp-Name", async () => {
    for (const name of ["other", "=?base64?cm91dGU?=", "=?base64?!!!?="]) {
      const answer = await call({ region: "eu" }, { "mcp-name": name, "mcp-param-region": "eu" });
      assert.equal(answer.status, 400, name);
      assert.equal(answer.body.error.code, -32020);
    }
    const request = await modern(server, "tools/call", { name: "route", arguments: { region: "eu" } }, {
      "mcp-param-region": "eu",
    });
    assert.equal(request.status, 200); // the helper sent Mcp-Name itself
  });

  it("decodes a base64 Mcp-Name", async () => {
    const answer = await call({ region: "eu" }, { "mcp-name": b64("route"), "mcp-param-region": "eu" });
    assert.equal(answer.status, 200);
  });
});

describe("Mcp-Param-* (x-mcp-header)", () => {
  it("accepts matching headers: plain, base64, integers numerically, booleans", async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ region: "us-west1" }, { "mcp-param-region": "us-west1" }],
      [{ region: "Hello, 世界" }, { "mcp-param-region": b64("Hello, 世界") }],
      [{ region: " padded " }, { "mcp-param-region": b64(" padded ") }],
      [{ region: "line1\nline2" }, { "mcp-param-region": b64("line1\nline2") }],
      [{ region: "" }, { "mcp-param-region": "" }],
      [{ region: "eu", priority: 42 }, { "mcp-param-region": "eu", "mcp-param-priority": "42.0" }],
      [{ region: "eu", verbose: false }, { "mcp-param-region": "eu", "mcp-param-verbose": "false" }],
      [{ region: "SGVsbG8=" }, { "mcp-param-region": "SGVsbG8=" }], // no sentinel: literal
      [{ region: "=?base64?SGVsbG8=" }, { "mcp-param-region": "=?base64?SGVsbG8=" }], // no suffix: literal
    ];
    for (const [args, headers] of cases) {
      const answer = await call(args, headers);
      assert.equal(answer.status, 200, JSON.stringify(args));
      assert.equal(answer.body.result.isError, undefined, JSON.stringify(args));
    }
  });

  it("needs no header for a null value (the arguments are then checked as usual)", async () => {
    const answer = await call({ region: "eu", verbose: null }, { "mcp-param-region": "eu" });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.result.isError, true);
  });

  it("rejects a missing, different or badly encoded header with 400/-32020", async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ region: "eu" }, {}],
      [{ region: "eu" }, { "mcp-param-region": "us" }],
      [{ region: "Hello" }, { "mcp-param-region": "=?base64?SGVsbG8?=" }], // bad padding
      [{ region: "Hello" }, { "mcp-param-region": "=?base64?SGVs!!!bG8=?=" }], // bad characters
      [{ region: "\u00ff" }, { "mcp-param-region": "=?base64?/w==?=" }], // not UTF-8
      [{ region: "eu", priority: 42 }, { "mcp-param-region": "eu", "mcp-param-priority": "43" }],
      [{ region: "eu", priority: 42 }, { "mcp-param-region": "eu" }],
      [{ region: "eu", verbose: true }, { "mcp-param-region": "eu", "mcp-param-verbose": "TRUE" }],
    ];
    for (const [args, headers] of cases) {
      const answer = await call(args, headers);
      assert.equal(answer.status, 400, JSON.stringify([args, headers]));
      assert.equal(answer.body.error.code, -32020);
      assert.equal(answer.body.id, 1);
    }
  });

  it("lists the declaration in the tool's inputSchema", async () => {
    const { body } = await modern(server, "tools/list");
    assert.equal(body.result.tools[0].inputSchema.properties.region["x-mcp-header"], "Region");
  });
});

describe("x-mcp-header declarations are checked when the tool is registered on an MCP server", () => {
  const define = (schema: v.GenericSchema) => () =>
    createServer({ name: "h", version: "1" }).tool(defineTool("t").input(schema as never).handle(() => "ok"));
  it("rejects invalid names, types, duplicates and unreachable positions", () => {
    const bad: [string, v.GenericSchema][] = [
      ["empty", v.object({ a: v.pipe(v.string(), v.metadata({ "x-mcp-header": "" })) })],
      ["space", v.object({ a: v.pipe(v.string(), v.metadata({ "x-mcp-header": "My Region" })) })],
      ["colon", v.object({ a: v.pipe(v.string(), v.metadata({ "x-mcp-header": "a:b" })) })],
      ["non-ASCII", v.object({ a: v.pipe(v.string(), v.metadata({ "x-mcp-header": "Région" })) })],
      ["number", v.object({ a: v.pipe(v.number(), v.metadata({ "x-mcp-header": "N" })) })],
      ["object", v.object({ a: v.pipe(v.object({}), v.metadata({ "x-mcp-header": "O" })) })],
      ["array item", v.object({ a: v.array(v.pipe(v.string(), v.metadata({ "x-mcp-header": "I" }))) })],
      ["union", v.object({ a: v.nullable(v.pipe(v.boolean(), v.metadata({ "x-mcp-header": "U" }))) })],
      [
        "duplicate",
        v.object({
          a: v.pipe(v.string(), v.metadata({ "x-mcp-header": "Region" })),
          b: v.pipe(v.string(), v.metadata({ "x-mcp-header": "region" })),
        }),
      ],
    ];
    for (const [what, schema] of bad) assert.throws(define(schema), TypeError, what);
  });

  it("leaves them to MCP: a server without the MCP binding registers the tool", () => {
    const bad = v.object({ a: v.pipe(v.string(), v.metadata({ "x-mcp-header": "My Region" })) });
    const tool = defineTool("t").input(bad).handle(() => "ok");
    assert.doesNotThrow(() => createServer({ name: "h", version: "1", bindings: [mcpLiteBinding()] }).tool(tool));
  });

  it("accepts nested properties reached through properties only", () => {
    assert.doesNotThrow(
      define(v.object({ where: v.object({ zone: v.pipe(v.string(), v.metadata({ "x-mcp-header": "Zone" })) }) })),
    );
  });
});

describe("decodeHeaderValue", () => {
  it("decodes the sentinel, trims whitespace and keeps half-sentinels literal", () => {
    assert.equal(decodeHeaderValue("=?base64?SGVsbG8=?="), "Hello");
    assert.equal(decodeHeaderValue(" \tplain\t "), "plain");
    assert.equal(decodeHeaderValue("=?base64?SGVsbG8="), "=?base64?SGVsbG8=");
    assert.equal(decodeHeaderValue("SGVsbG8=?="), "SGVsbG8=?=");
    assert.equal(decodeHeaderValue("=?base64?SGVsbG8?="), undefined);
  });
});
