import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { slowProbe } from "../../helpers/fixtures.ts";
import { waitFor } from "../../helpers/long-running.ts";
import { legacyRequest, post } from "../../helpers/request.ts";
import { type Fetcher, legacy, mcpServer, send, SseReader } from "./mcp-helpers.ts";

const ALL = { elicitation: {}, sampling: {}, roots: {} };

async function open(
  server: Fetcher,
  capabilities: Record<string, unknown> = ALL,
  version = "2025-11-25",
): Promise<string> {
  const { headers } = await send(
    server,
    legacyRequest("initialize", { protocolVersion: version, capabilities, clientInfo: { name: "t", version: "1" } }),
  );
  return headers.get("mcp-session-id")!;
}

function call(
  session: string,
  name: string,
  args: Record<string, unknown>,
  id: number | string = 1,
  version = "2025-11-25",
) {
  return legacyRequest("tools/call", { name, arguments: args }, id, version, { "mcp-session-id": session });
}

function answer(session: string | undefined, id: string, result: unknown): Request {
  return post("/mcp", { jsonrpc: "2.0", id, result }, session === undefined ? {} : { "mcp-session-id": session });
}

describe("2025 revisions: server→client requests on the call's stream", () => {
  it("asks for elicitation on the SSE stream and resumes when the answer is POSTed back", async () => {
    const server = mcpServer();
    const session = await open(server);
    const response = await server.fetch(call(session, "confirm", { what: "the purchase" }, 11));
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    const stream = new SseReader(response);
    const question = await stream.next();
    assert.equal(question.method, "elicitation/create");
    assert.equal(question.params.mode, "form");
    assert.equal(question.params.message, "Confirm the purchase?");
    assert.match(question.id, /^mcplite-/);
    const accepted = await server.fetch(answer(session, question.id, { action: "accept", content: { ok: true } }));
    assert.equal(accepted.status, 202);
    const final = await stream.next();
    assert.equal(final.id, 11);
    assert.equal(final.result.content[0].text, 'accept: {"ok":true}');
    assert.equal(await stream.next(), undefined, "the stream ends after the result");
  });

  it("asks for sampling and roots one after the other", async () => {
    const server = mcpServer();
    const session = await open(server);
    const stream = new SseReader(await server.fetch(call(session, "ask_model", {})));
    const sampling = await stream.next();
    assert.equal(sampling.method, "sampling/createMessage");
    await server.fetch(
      answer(session, sampling.id, { role: "assistant", content: { type: "text", text: "yo" }, model: "m1" }),
    );
    const roots = await stream.next();
    assert.equal(roots.method, "roots/list");
    await server.fetch(answer(session, roots.id, { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] }));
    assert.equal((await stream.next()).result.content[0].text, "m1 with 2 roots");
  });

  it("accepts the answer only with the session that asked", async () => {
    const server = mcpServer();
    const session = await open(server);
    const stream = new SseReader(await server.fetch(call(session, "confirm", { what: "x" })));
    const question = await stream.next();
    const stranger = await send(
      server,
      answer(await open(server), question.id, { action: "accept", content: { ok: true } }),
    );
    assert.equal(stranger.status, 400);
    assert.equal((await server.fetch(answer(session, question.id, { action: "decline" }))).status, 202);
    assert.equal((await stream.next()).result.content[0].text, "decline: {}");
  });

  it("turns an error answer into a tool failure", async () => {
    const server = mcpServer();
    const session = await open(server);
    const stream = new SseReader(await server.fetch(call(session, "confirm", { what: "x" })));
    const question = await stream.next();
    await server.fetch(
      post("/mcp", { jsonrpc: "2.0", id: question.id, error: { code: -32601, message: "no forms here" } }, {
        "mcp-session-id": session,
      }),
    );
    const final = await stream.next();
    assert.equal(final.result.isError, true);
    assert.match(final.result.content[0].text, /no forms here/);
  });

  it("refuses to ask for a capability the session did not declare (-32021, before any stream)", async () => {
    const server = mcpServer();
    const session = await open(server, { sampling: {} });
    const { body } = await send(server, call(session, "confirm", { what: "x" }));
    assert.equal(body.error.code, -32021);
    assert.deepEqual(body.error.data.requiredCapabilities, { elicitation: {} });
  });

  it("refuses to ask a client that does not accept SSE", async () => {
    const server = mcpServer();
    const session = await open(server);
    const { body } = await legacy(server, "tools/call", { name: "confirm", arguments: { what: "x" } }, {
      "mcp-session-id": session,
    });
    assert.equal(body.error.code, -32021);
  });

  it("drops the form `mode` for clients of 2025-06-18, which predate it", async () => {
    const server = mcpServer();
    const session = await open(server, ALL, "2025-06-18");
    const stream = new SseReader(await server.fetch(call(session, "confirm", { what: "x" }, 1, "2025-06-18")));
    const question = await stream.next();
    assert.equal(question.params.mode, undefined);
    assert.equal(question.params.message, "Confirm x?");
    await server.fetch(answer(session, question.id, { action: "cancel" }));
    assert.equal((await stream.next()).result.content[0].text, "cancel: {}");
  });

  it("stops waiting when the client closes the stream", async () => {
    const server = mcpServer();
    const session = await open(server);
    const stream = new SseReader(await server.fetch(call(session, "confirm", { what: "x" })));
    const question = await stream.next();
    await stream.close();
    const late = await send(server, answer(session, question.id, { action: "accept", content: { ok: true } }));
    assert.equal(late.status, 400, "the question was withdrawn");
  });
});

describe("2025 revisions: logging", () => {
  const levels = async (server: Fetcher, headers: Record<string, string>) => {
    const request = legacyRequest("tools/call", { name: "chatty", arguments: {} }, 1, "2025-11-25", headers);
    const events = await new SseReader(await server.fetch(request)).rest();
    return events.filter((e) => e.method === "notifications/message").map((e) => e.params.level);
  };

  it("sends every level by default, on the call's own stream", async () => {
    assert.deepEqual(await levels(mcpServer(), {}), ["debug", "info", "warning", "error"]);
  });

  it("honours logging/setLevel for the session on this instance", async () => {
    const server = mcpServer();
    const session = await open(server);
    const set = await legacy(server, "logging/setLevel", { level: "warning" }, { "mcp-session-id": session });
    assert.deepEqual(set.body.result, {});
    assert.deepEqual(await levels(server, { "mcp-session-id": session }), ["warning", "error"]);
    assert.deepEqual(await levels(server, {}), ["debug", "info", "warning", "error"], "other clients are not affected");
  });

  it("rejects an unknown level", async () => {
    const { body } = await legacy(mcpServer(), "logging/setLevel", { level: "chatty" });
    assert.equal(body.error.code, -32602);
  });

  it("carries the logger name and structured data", async () => {
    const events = await new SseReader(await mcpServer().fetch(legacyRequest("tools/call", { name: "chatty" }))).rest();
    const error = events.find((e) => e.params?.level === "error");
    assert.deepEqual(error.params, { level: "error", logger: "db", data: { code: 7 } });
  });
});

describe("2025 revisions: notifications/cancelled", () => {
  it("aborts the call it names, for the session that made it", async () => {
    const server = mcpServer();
    const session = await open(server);
    const before = slowProbe.aborted, started = slowProbe.started;
    const pending = send(
      server,
      legacyRequest("tools/call", { name: "slow", arguments: { ms: 10_000 } }, 42, "2025-11-25", {
        accept: "application/json",
        "mcp-session-id": session,
      }),
    );
    await waitFor(() => slowProbe.started !== started, 10_000); // in its handler
    const other = await open(server);
    const ignored = await server.fetch(
      post("/mcp", { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 42 } }, {
        "mcp-session-id": other,
      }),
    );
    assert.equal(ignored.status, 202);
    const cancel = await server.fetch(
      post("/mcp", {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 42, reason: "changed my mind" },
      }, {
        "mcp-session-id": session,
      }),
    );
    assert.equal(cancel.status, 202);
    const { body } = await pending;
    assert.equal(body.result.content[0].text, "cancelled");
    assert.equal(slowProbe.aborted, before + 1);
  });
});
