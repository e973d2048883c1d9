/**
 * `toolsFromOpenAPI()`: an error status reads the message an API nests in its body (Stripe, Microsoft
 * Graph, GitHub, OAuth 2.0, RFC 9457) into `HTTP 401: <message>`; operation names longer than 64
 * characters keep a distinguishing tail instead of colliding as `_2` … `_n`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServer, type Server } from "../../../mod.ts";
import type { ToolMap } from "../../../src/server/server.ts";
import type { Listener } from "../../../src/types.ts";
import { toolsFromOpenAPI } from "../../../src/bindings/openapi/mod.ts";
import { ENCODINGS_DOCUMENT, ERROR_BODIES, recordingServer } from "../../helpers/openapi-encodings.ts";

describe("toolsFromOpenAPI error text", () => {
  let listener: Listener;
  let server: Server<ToolMap>;
  before(async () => {
    ({ listener } = await recordingServer());
    server = createServer({ name: "errors", version: "1.0.0" });
    for (const tool of await toolsFromOpenAPI(ENCODINGS_DOCUMENT, { baseUrl: listener.url })) server.tool(tool);
  });
  after(() => listener.close());

  it("reads the common nested shapes into HTTP 401: <message>, the body kept as structured content", async () => {
    const expected: Record<string, string> = {
      stripe: "HTTP 401: Invalid API Key provided: sk_test_***",
      graph: "HTTP 401: Access token is empty.",
      github: "HTTP 401: Bad credentials",
      oauth: "HTTP 401: The access token expired",
      problem: "HTTP 401: Token revoked",
    };
    for (const [shape, text] of Object.entries(expected)) {
      const outcome = await server.call("failWith", { shape });
      assert.equal(outcome.kind, "failure", shape);
      if (outcome.kind !== "failure") continue;
      assert.deepEqual(outcome.result.content, [{ type: "text", text }], shape);
      assert.deepEqual(outcome.result.structuredContent, { status: 401, body: ERROR_BODIES[shape] }, shape);
    }
  });
});

describe("toolsFromOpenAPI names", () => {
  it("keeps the head and a distinguishing tail of names longer than 64 characters, stable across imports", async () => {
    // Microsoft Graph's operationIds, which share their first 64 characters.
    const ids = [
      "deviceManagement.deviceConfigurations.deviceStatuses.deviceConfigurationDeviceStatus.GetCount",
      "deviceManagement.deviceConfigurations.deviceStatuses.deviceConfigurationDeviceStatus.ListDeviceConfiguration",
      "deviceManagement.deviceConfigurations.deviceStatuses.deviceConfigurationDeviceStatus.UpdateDeviceStatus",
      "deviceManagement.deviceConfigurations.userStatuses.deviceConfigurationUserStatus.GetCount",
    ];
    const document = {
      openapi: "3.0.3",
      info: { title: "Graph-like", version: "1" },
      paths: Object.fromEntries(ids.map((id, i) => [`/op${i}`, { get: { operationId: id, responses: {} } }])),
    };
    const names = (await toolsFromOpenAPI(document, { baseUrl: "http://graph.test" })).map((t) => t.name);
    assert.equal(new Set(names).size, ids.length);
    for (const [i, name] of names.entries()) {
      assert.ok(name.length <= 64, name);
      assert.doesNotMatch(name, /_\d$/, "no collision suffix");
      assert.ok(name.startsWith(ids[i].slice(0, 23)), `${name} keeps the head`);
      assert.ok(name.endsWith(ids[i].slice(-31)), `${name} keeps the tail`);
    }
    const again = (await toolsFromOpenAPI(document, { baseUrl: "http://graph.test" })).map((t) => t.name);
    assert.deepEqual(again, names, "the same document gives the same names");
  });
});
