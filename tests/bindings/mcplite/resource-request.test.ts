/**
 * `request-for-more-resource` (MCP-lite spec v0.042 §3.3, as the README's MCP-lite section defines it):
 * `ctx.requestResource()` ends the call with that response type, `input_requests` and a signed
 * `request_state`; the client calls again with the contents in `inputResponses`; the handler runs again
 * and reads them. Over HTTP (raw, and our client on a socket), stdio, WebSocket (raw frames and our
 * client over `ws://`), and MCP (refused unless declared).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { tamper } from "../../helpers/tamper.ts";
import * as v from "valibot";
import { createServer, defineTool, mcpLiteBinding, serve } from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";
import { createClient } from "../../../src/client/mod.ts";
import { createMcpliteTransport } from "../../../src/client/transports/mcplite.ts";
import { modernRequest, post } from "../../helpers/request.ts";
import { pipeServer } from "../../helpers/stdio.ts";
import { webSocketBinding } from "../../../src/websocket/mod.ts";
import { createWebSocketTransport } from "../../../src/client/transports/websocket.ts";
import { TestSocket } from "../../websocket/socket.ts";

const CALL = "/mcp-lite/v1/calltools";
const SECRET = "a-test-secret-that-is-at-least-32-bytes-long";
const SPEC = "# The spec\nEvery line ends with a full stop.\n";

function specServer(options: Pick<Parameters<typeof createServer>[0], "bindings" | "logger"> = {}) {
  let runs = 0;
  const server = createServer({ name: "linter", version: "1.0.0", secret: SECRET, ...options }).tool(
    defineTool("lint").describe("Lints a text against a style guide")
      .input(v.object({ text: v.string() }))
      .handle(async ({ text }, ctx) => {
        runs++;
        const spec = await ctx.requestResource("spec", {
          description: "The style guide to check against",
          uri: "file:///style.md",
          mimeTypes: ["text/markdown"],
        });
        assert.ok("text" in spec, "a text resource");
        const rule = spec.text.includes("full stop") ? "full stop" : "none";
        return { rule, ok: text.endsWith("."), from: spec.uri };
      }),
  );
  return { server, runs: () => runs };
}

function call(params: Record<string, unknown>, id: string | number = 1): Request {
  return post(CALL, { jsonrpc: "2.0", id, method: "tools/call", params });
}

const ASKED = {
  spec: {
    method: "resources/request",
    params: { description: "The style guide to check against", uri: "file:///style.md", mimeTypes: ["text/markdown"] },
  },
};
const CONTENTS = { uri: "file:///style.md", mimeType: "text/markdown", text: SPEC };

describe("request-for-more-resource over MCP-lite HTTP", () => {
  it("ends the call with the request and a signed state; the call with the contents gets the answer", async () => {
    const { server, runs } = specServer();
    const params = { name: "lint", arguments: { text: "Hello." } };
    const first = await (await server.fetch(call(params, "r-1"))).json();
    assert.deepEqual(Object.keys(first.result), ["_meta"]);
    assert.equal(first.result._meta.response_type, "request-for-more-resource");
    assert.deepEqual(first.result._meta.input_requests, ASKED);
    assert.match(first.result._meta.request_state, /^mcl1\./);

    const done = await (await server.fetch(call({
      ...params,
      inputResponses: { spec: CONTENTS },
      requestState: first.result._meta.request_state,
    }, "r-2"))).json();
    assert.equal(done.id, "r-2");
    assert.equal(done.result._meta.response_type, "answer");
    assert.deepEqual(done.result.structuredContent, { rule: "full stop", ok: true, from: "file:///style.md" });
    assert.equal(runs(), 2);
  });

  it("refuses a forged request_state with -32602, never running the handler with the contents", async () => {
    const { server, runs } = specServer({ logger: false }); // a forged state on purpose: no error line
    const params = { name: "lint", arguments: { text: "Hello." } };
    const first = await (await server.fetch(call(params))).json();
    const state: string = first.result._meta.request_state;
    const forged = tamper(state);
    const body =
      await (await server.fetch(call({ ...params, inputResponses: { spec: CONTENTS }, requestState: forged })))
        .json();
    assert.equal(body.error.code, -32602);
    assert.equal(body.error.data.reason, "invalid_request_state");
    // A state minted for other arguments does not resume this call either.
    const other = await (await server.fetch(call({
      name: "lint",
      arguments: { text: "Other" },
      inputResponses: { spec: CONTENTS },
      requestState: state,
    }))).json();
    assert.equal(other.error.code, -32602);
    assert.equal(runs(), 1);
  });

  it("asks again when the answer is not resource contents (no text or blob, or both)", async () => {
    const { server } = specServer();
    const params = { name: "lint", arguments: { text: "Hello." } };
    const first = await (await server.fetch(call(params))).json();
    for (const bad of [{ uri: "file:///style.md" }, { uri: 1, text: "x" }, { uri: "a", text: "x", blob: "eA==" }]) {
      const again = await (await server.fetch(call({
        ...params,
        inputResponses: { spec: bad },
        requestState: first.result._meta.request_state,
      }))).json();
      assert.equal(again.result._meta.response_type, "request-for-more-resource", JSON.stringify(bad));
    }
  });
});

describe("request-for-more-resource with our client", () => {
  let listener: Listener;
  const { server } = specServer();
  before(async () => {
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await listener.close();
  });

  it("answers through onResourceRequest over MCP-lite, the handler getting the contents", async () => {
    const asked: unknown[] = [];
    const client = createClient<typeof server>(createMcpliteTransport(`${listener.url}/mcp-lite/v1`), {
      onResourceRequest: (request) => {
        asked.push(request);
        return CONTENTS;
      },
    });
    const result = await client.tools.lint({ text: "No stop" });
    assert.deepEqual(result, { rule: "full stop", ok: false, from: "file:///style.md" });
    assert.deepEqual(asked, [ASKED.spec.params]);
  });

  it("over MCP, a client that declares the capability is asked; one that does not gets -32021", async () => {
    const client = createClient<typeof server>(`${listener.url}/mcp`, { onResourceRequest: () => CONTENTS });
    assert.deepEqual(await client.tools.lint({ text: "Yes." }), {
      rule: "full stop",
      ok: true,
      from: "file:///style.md",
    });

    const response = await server.fetch(modernRequest("tools/call", { name: "lint", arguments: { text: "Yes." } }));
    const body = await response.json();
    assert.equal(body.error?.code, -32021, JSON.stringify(body));
    assert.deepEqual(body.error.data.requiredCapabilities, { experimental: { "io.mcplite/resourceRequests": {} } });
  });
});

describe("request-for-more-resource over MCP-lite stdio", () => {
  it("ends the call with the request; the call with the contents gets the answer; a forged state is refused", async () => {
    const { server } = specServer({ logger: false }); // a forged state on purpose: no error line
    const piped = pipeServer(server);
    try {
      const params = { name: "lint", arguments: { text: "Hello." } };
      piped.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params });
      const first = (await piped.answer(1)).result as { _meta: Record<string, unknown> };
      assert.equal(first._meta.response_type, "request-for-more-resource");
      assert.deepEqual(first._meta.input_requests, ASKED);

      const state = first._meta.request_state as string;
      piped.send({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { ...params, inputResponses: { spec: CONTENTS }, requestState: tamper(state) },
      });
      const forged = (await piped.answer(2)).error as { code: number };
      assert.equal(forged.code, -32602);

      piped.send({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { ...params, inputResponses: { spec: CONTENTS }, requestState: state },
      });
      const done = (await piped.answer(3)).result as Record<string, unknown>;
      assert.equal((done._meta as Record<string, unknown>).response_type, "answer");
      assert.deepEqual(done.structuredContent, { rule: "full stop", ok: true, from: "file:///style.md" });
    } finally {
      await piped.end();
    }
  });
});

describe("request-for-more-resource over MCP-lite WebSocket", () => {
  let listener: Listener;
  let url: string;
  const { server, runs } = specServer({ bindings: [mcpLiteBinding(), webSocketBinding()], logger: false }); // a forged state
  before(async () => {
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    url = listener.url.replace("http:", "ws:") + "/mcp-lite/v1/ws";
  });
  after(async () => {
    await listener.close();
  });

  it("ends the call with the request; the frame with the contents gets the answer; a forged state is refused", async () => {
    const socket = await TestSocket.open(url);
    try {
      const params = { name: "lint", arguments: { text: "Hello." } };
      socket.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params });
      const first = (await socket.answer(1)).result;
      assert.equal(first._meta.response_type, "request-for-more-resource");
      assert.deepEqual(first._meta.input_requests, ASKED);

      const state: string = first._meta.request_state;
      const resume = (id: number, requestState: string) =>
        socket.send({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { ...params, inputResponses: { spec: CONTENTS }, requestState },
        });
      const before = runs();
      resume(2, tamper(state));
      assert.equal((await socket.answer(2)).error.code, -32602);
      assert.equal(runs(), before, "a forged state never runs the handler");

      resume(3, state);
      const done = (await socket.answer(3)).result;
      assert.equal(done._meta.response_type, "answer");
      assert.deepEqual(done.structuredContent, { rule: "full stop", ok: true, from: "file:///style.md" });
      assert.equal(socket.closed, false);
    } finally {
      await socket.close();
    }
  });

  it("answers through onResourceRequest with our client over ws://", async () => {
    const asked: unknown[] = [];
    const client = createClient<typeof server>(createWebSocketTransport(url), {
      onResourceRequest: (request) => {
        asked.push(request);
        return CONTENTS;
      },
    });
    try {
      assert.deepEqual(await client.tools.lint({ text: "No stop" }), {
        rule: "full stop",
        ok: false,
        from: "file:///style.md",
      });
      assert.deepEqual(asked, [ASKED.spec.params]);
    } finally {
      await client.close();
    }
  });
});
