/**
 * The 2025-era session table: bounded, least recently used first out. A request whose session was
 * forgotten is still served, with the defaults (every log level). A session's DELETE ends it (MCP
 * 2025-11-25, Transports: Session Management): 204 (also for an id unknown here), then 404 for its requests; through the
 * same Host check, authentication and CORS as a POST; from the official TypeScript SDK's clients too.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { cors, createServer, defineTool, mcpBinding, serve } from "../../../mod.ts";
import { SessionTable } from "../../../src/bindings/mcp/sessions.ts";
import type { Listener } from "../../../src/types.ts";
import { BASE, legacyRequest, modernRequest } from "../../helpers/request.ts";
import { bearer, opaqueAuth } from "../../helpers/opaque-auth.ts";
import { readSse } from "../../helpers/sse.ts";
import { mcpServer } from "./mcp-helpers.ts";

const SESSION = { protocolVersion: "2025-11-25", capabilities: undefined, clientInfo: undefined, logLevel: undefined };

describe("the 2025 session table", () => {
  it("keeps at most its limit, dropping the least recently used", () => {
    const table = new SessionTable(2);
    const a = table.open({ ...SESSION });
    const b = table.open({ ...SESSION });
    assert.ok(table.get(a)); // a is now the most recently used
    const c = table.open({ ...SESSION });
    assert.equal(table.get(b), undefined, "b was the least recently used");
    assert.ok(table.get(a));
    assert.ok(table.get(c));
    assert.equal(table.get(null), undefined);
  });

  it("ends a session: 204, then 404 for its other requests; 400 without an id, 204 for one unknown here", () => {
    const table = new SessionTable(2);
    const a = table.open({ ...SESSION });
    const b = table.open({ ...SESSION });
    assert.equal(table.end(a, true), 0, "another request with a live session goes on");
    assert.equal(table.end(a, false), 204);
    assert.equal(table.end(a, true), 404, "another request with an ended session");
    assert.equal(table.get(a), undefined, "its state is dropped");
    assert.equal(table.end(a, false), 204, "a second DELETE: idempotent (RFC 9110 §9.2.2)");
    assert.equal(table.end(null, false), 400);
    assert.equal(table.end(null, true), 0);
    assert.equal(table.end("not-a-session", false), 204, "another instance's session, or evicted: nothing to forget");
    assert.equal(table.end("not-a-session", true), 0, "an unknown id is served, with the defaults");
    assert.ok(table.get(b));
    table.open({ ...SESSION });
    table.open({ ...SESSION }); // the ended id is evicted like any session
    assert.equal(table.end(a, true), 0);
  });

  it("forgets a session beyond the limit; its requests are still served, at every log level", async () => {
    const server = mcpServer({ bindings: [mcpBinding({ sessionLimit: 1 })] });
    const open = async () => {
      const response = await server.fetch(legacyRequest("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      }));
      await response.body?.cancel();
      return response.headers.get("mcp-session-id")!;
    };
    const levels = async (session: string) => {
      const response = await server.fetch(
        legacyRequest("tools/call", { name: "chatty", arguments: {} }, 2, "2025-11-25", { "mcp-session-id": session }),
      );
      const messages = (await readSse(response)).map((e) => JSON.parse(e.data));
      return messages.filter((m) => m.method === "notifications/message").map((m) => m.params.level);
    };
    const a = await open();
    const set = await server.fetch(
      legacyRequest("logging/setLevel", { level: "error" }, 3, "2025-11-25", { "mcp-session-id": a }),
    );
    assert.equal(set.status, 200);
    assert.deepEqual(await levels(a), ["error"]); // remembered
    await open(); // the limit is 1: a is forgotten
    assert.deepEqual(await levels(a), ["debug", "info", "warning", "error"]);
  });
});

/** `initialize` on a 2025 revision: the session id the answer carries. */
async function initialize(fetch: (request: Request) => Promise<Response>, headers: Record<string, string> = {}) {
  const response = await fetch(legacyRequest(
    "initialize",
    {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    },
    1,
    "2025-11-25",
    headers,
  ));
  assert.equal(response.status, 200);
  await response.body?.cancel();
  return response.headers.get("mcp-session-id")!;
}

const end = (session: string | undefined, headers: Record<string, string> = {}) =>
  new Request(BASE + "/mcp", {
    method: "DELETE",
    headers: session === undefined ? headers : { "mcp-session-id": session, ...headers },
  });

describe("a session's DELETE", () => {
  const server = mcpServer();

  it("ends the session: 204 with no body, then 404 for a request with its id; a second DELETE is 204", async () => {
    const session = await initialize(server.fetch);
    const listed = await server.fetch(legacyRequest("tools/list", {}, 2, "2025-11-25", { "mcp-session-id": session }));
    assert.equal(listed.status, 200);
    await listed.body?.cancel();
    const ended = await server.fetch(end(session));
    assert.equal(ended.status, 204);
    assert.equal(await ended.text(), "");
    for (const method of ["tools/list", "ping"]) {
      const after = await server.fetch(legacyRequest(method, {}, 3, "2025-11-25", { "mcp-session-id": session }));
      assert.equal(after.status, 404, method);
      await after.body?.cancel();
    }
    const again = await server.fetch(end(session));
    assert.equal(again.status, 204);
    // A new session is served as before.
    const other = await initialize(server.fetch);
    assert.notEqual(other, session);
    const listedAgain = await server.fetch(
      legacyRequest("tools/list", {}, 4, "2025-11-25", { "mcp-session-id": other }),
    );
    assert.equal(listedAgain.status, 200);
    await listedAgain.body?.cancel();
  });

  it("answers 400 without a session id and 204 for an id unknown here; 2026-07-28 is untouched", async () => {
    const missing = await server.fetch(end(undefined));
    assert.equal(missing.status, 400);
    await missing.body?.cancel();
    // Another instance's session (behind a load balancer), or one evicted here: the DELETE reaches an instance that
    // holds nothing of it, and the client's session ends all the same.
    const unknown = await server.fetch(end("3d1f1f5c-0000-4000-8000-000000000000"));
    assert.equal(unknown.status, 204);
    await unknown.body?.cancel();
    // A request with an id this instance never issued is still served (another instance's session).
    const served = await server.fetch(
      legacyRequest("tools/list", {}, 5, "2025-11-25", { "mcp-session-id": "3d1f1f5c-0000-4000-8000-000000000000" }),
    );
    assert.equal(served.status, 200);
    await served.body?.cancel();
    const modern = await server.fetch(modernRequest("tools/list"));
    assert.equal(modern.status, 200);
    assert.equal(modern.headers.get("mcp-session-id"), null, "2026-07-28 has no sessions");
    await modern.body?.cancel();
  });

  it("goes through the same Host check, authentication and CORS as a POST", async () => {
    const guarded = mcpServer({ auth: opaqueAuth(), cors: cors({ origins: ["https://app.example"] }) });
    const session = await initialize(guarded.fetch, bearer("reader"));
    const foreign = await guarded.fetch(
      new Request("http://evil.example.com/mcp", {
        method: "DELETE",
        headers: { "mcp-session-id": session, ...bearer("reader") },
      }),
    );
    assert.equal(foreign.status, 403, "the Host check");
    await foreign.body?.cancel();
    const anonymous = await guarded.fetch(end(session));
    assert.equal(anonymous.status, 401, "authentication");
    assert.match(anonymous.headers.get("www-authenticate") ?? "", /^Bearer /);
    await anonymous.body?.cancel();
    const preflight = await guarded.fetch(
      new Request(BASE + "/mcp", {
        method: "OPTIONS",
        headers: {
          origin: "https://app.example",
          "access-control-request-method": "DELETE",
          "access-control-request-headers": "authorization, mcp-session-id",
        },
      }),
    );
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-methods"), "POST, DELETE");
    const ended = await guarded.fetch(end(session, { ...bearer("reader"), origin: "https://app.example" }));
    assert.equal(ended.status, 204);
    assert.equal(ended.headers.get("access-control-allow-origin"), "https://app.example");
  });
});

describe("the official TypeScript SDK's clients ending their session", () => {
  const server = createServer({ name: "sessions", version: "1.0.0" })
    .tool(defineTool("ok").describe("Answers fine").handle(() => "fine"));
  let listener: Listener;
  before(async () => listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true }));
  after(async () => await listener.close());

  /** A fetch that notes the status of every DELETE the client sends. */
  const recording = (statuses: number[]): typeof fetch => async (input, init) => {
    const response = await fetch(new Request(input, init));
    if ((init?.method ?? (input instanceof Request ? input.method : "GET")) === "DELETE") {
      statuses.push(response.status);
    }
    return response;
  };

  it("v1 (@modelcontextprotocol/sdk 1.32): terminateSession() sees 204; the id is then unknown", async () => {
    // Loaded by a computed specifier, as in official-clients.test.ts (Deno's checker and the v1 subpaths).
    const V1 = "@modelcontextprotocol/sdk";
    const { StreamableHTTPClientTransport } = await import(`${V1}/client/streamableHttp.js`) as {
      StreamableHTTPClientTransport: new (url: URL, options: { fetch: typeof fetch }) => {
        sessionId?: string;
        terminateSession(): Promise<void>;
      } & Parameters<ClientV1["connect"]>[0];
    };
    const statuses: number[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(`${listener.url}/mcp`), { fetch: recording(statuses) });
    const client = new ClientV1({ name: "v1", version: "1.32.2" });
    await client.connect(transport);
    const session = transport.sessionId!;
    assert.ok(session);
    await client.callTool({ name: "ok", arguments: {} });
    await transport.terminateSession();
    assert.deepEqual(statuses, [204]);
    assert.equal(transport.sessionId, undefined);
    await client.close();
    const after = await fetch(`${listener.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        "mcp-session-id": session,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    assert.equal(after.status, 404);
    await after.body?.cancel();
  });

  it("v2 (@modelcontextprotocol/client 2.4, its default 2025 mode): terminateSession() sees 204", async () => {
    const statuses: number[] = [];
    const transport = new TransportV2(new URL(`${listener.url}/mcp`), { fetch: recording(statuses) });
    const client = new ClientV2({ name: "v2", version: "2.4.0" });
    await client.connect(transport);
    assert.ok(transport.sessionId);
    await client.callTool({ name: "ok", arguments: {} });
    await transport.terminateSession();
    assert.deepEqual(statuses, [204]);
    assert.equal(transport.sessionId, undefined);
    await client.close();
  });
});
