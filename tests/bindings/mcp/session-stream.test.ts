/**
 * A 2025 session's resource subscriptions over HTTP (MCP 2025-11-25, Resources: Subscriptions; Transports:
 * "Listening for Messages from the Server"). A stateless server (the default) has no stream to carry the updates:
 * it refuses `resources/subscribe` (-32601) and does not advertise `subscribe`. With `sessionStreams()`, the official
 * v1 client (`@modelcontextprotocol/sdk`) opens the session's GET stream after `initialize`, subscribes with
 * `subscribeResource`, and hears `notifications/resources/updated` there until it unsubscribes; a subscription no
 * stream could serve (no session, or one this instance does not know) is refused, never acknowledged with `{}`. The
 * stream ends with the session's DELETE.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client";
import { createServer, defineResource, mcpBinding, serve, sessionStreams } from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";
import { bearer, opaqueAuth } from "../../helpers/opaque-auth.ts";
import { legacyRequest } from "../../helpers/request.ts";

const V1 = "@modelcontextprotocol/sdk"; // its `.js` subpaths, which Deno's checker does not resolve
const { StreamableHTTPClientTransport } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL, options: { fetch: typeof fetch }) => Parameters<Client["connect"]>[0];
};

const NOTES = "notes://today";
const TODOS = "notes://todos";
/** How long a test waits for the updates it expects: a bound, never a hang (the updates come within milliseconds). */
const HEARD_MS = 30_000;

/** A server with two resources; `streams`: it serves 2025 sessions' streams (`sessionStreams()`). */
function notesServer(streams = true) {
  const bindings = [mcpBinding(streams ? { sessionStreams: sessionStreams() } : {})];
  return createServer({ name: "notes", version: "1.0.0", bindings })
    .resource(defineResource(NOTES).read(() => "today"))
    .resource(defineResource(TODOS).read(() => "todos"));
}

/** The official v1 client, connected; `streamOpen` settles once the server answered its GET with the stream. */
async function officialClient(url: string) {
  let opened!: () => void;
  const streamOpen = new Promise<void>((resolve) => opened = resolve);
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (init?.method === "GET" && response.ok) opened();
      return response;
    },
  });
  const client = new Client({ name: "v1", version: "1.32.2" });
  const updates: string[] = [];
  const waiters: (() => void)[] = [];
  // Every notification the client has no handler for (resources/updated, as the SDK's own subscribe example reads it).
  client.fallbackNotificationHandler = (notification) => {
    if (notification.method === "notifications/resources/updated") updates.push(String(notification.params?.uri));
    waiters.splice(0).forEach((wake) => wake());
    return Promise.resolve();
  };
  await client.connect(transport);
  /** Waits until `count` updates arrived: at most HEARD_MS, then fails naming what did arrive. */
  const heard = (count: number) =>
    new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`heard ${JSON.stringify(updates)} of ${count} updates in ${HEARD_MS} ms`)),
        HEARD_MS,
      );
      const check = () => {
        if (updates.length < count) return void waiters.push(check); // woken by the next notification
        clearTimeout(timer);
        resolve(updates.slice(0, count));
      };
      check();
    });
  /**
   * Ends the session (DELETE, which ends the server's side of the GET stream), then the client: a stream the server
   * still holds open would keep the listener's close waiting.
   */
  const end = async () => {
    await (transport as unknown as { terminateSession(): Promise<void> }).terminateSession().catch(() => {});
    await client.close();
  };
  return { client, transport, streamOpen, heard, end };
}

describe("a 2025 resources/subscribe over HTTP on a stateless server (the default)", () => {
  it("is refused with -32601, never answered {}, and subscribe is not advertised", async () => {
    const server = notesServer(false);
    const init = await server.fetch(legacyRequest("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    }));
    assert.deepEqual((await init.json()).result.capabilities.resources, {});
    const session = { "mcp-session-id": init.headers.get("mcp-session-id")! };
    for (const method of ["resources/subscribe", "resources/unsubscribe"]) {
      const response = await server.fetch(legacyRequest(method, { uri: NOTES }, 1, "2025-11-25", session));
      const { result, error } = await response.json();
      assert.equal(result, undefined);
      assert.equal(error.code, -32601, method);
    }
  });

  it("answers a GET 405, the official v1 client included, whose subscribeResource fails", async () => {
    const server = notesServer(false);
    const get = await server.fetch(
      new Request("http://localhost/mcp", {
        headers: { accept: "text/event-stream", "mcp-protocol-version": "2025-11-25" },
      }),
    );
    assert.equal(get.status, 405);
    await get.body?.cancel();
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const { client } = await officialClient(listener.url);
    try {
      assert.equal(client.getServerCapabilities()?.resources?.subscribe, undefined);
      await assert.rejects(client.subscribeResource({ uri: NOTES }), /-32601|Method not found/);
    } finally {
      await client.close();
      await listener.close();
    }
  });
});

describe("a 2025 session's resources/subscribe over HTTP with sessionStreams()", () => {
  let listener: Listener | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    await listener?.close();
    close = listener = undefined;
  });

  it("advertises resources.subscribe, and the official v1 client hears the updates of what it subscribed to, until it unsubscribes", async () => {
    const server = notesServer();
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const { client, streamOpen, heard, end } = await officialClient(listener.url);
    close = end;
    assert.deepEqual(client.getServerCapabilities()?.resources, { subscribe: true, listChanged: true });
    await streamOpen;
    await client.subscribeResource({ uri: NOTES });
    await client.subscribeResource({ uri: TODOS });
    server.resourceUpdated(NOTES);
    assert.deepEqual(await heard(1), [NOTES]);
    await client.unsubscribeResource({ uri: NOTES });
    server.resourceUpdated(NOTES); // no longer heard: the next update is the other resource's
    server.resourceUpdated(TODOS);
    assert.deepEqual(await heard(2), [NOTES, TODOS]);
  });

  it("refuses resources/subscribe without a session, or with one this instance does not know", async () => {
    const server = notesServer();
    const unknown = { "mcp-session-id": crypto.randomUUID() };
    for (const headers of [{}, unknown]) {
      const response = await server.fetch(
        legacyRequest("resources/subscribe", { uri: NOTES }, 1, "2025-11-25", headers),
      );
      assert.equal(response.status, 400);
      const { error } = await response.json();
      assert.equal(error.code, -32600);
      assert.match(error.message, /Mcp-Session-Id/);
    }
  });

  it("answers a GET without a session 400, with an unknown one 404, and one not asking for a stream 405", async () => {
    const server = notesServer();
    const get = (headers: Record<string, string>) =>
      server.fetch(
        new Request("http://localhost/mcp", { headers: { "mcp-protocol-version": "2025-11-25", ...headers } }),
      );
    const stream = { accept: "text/event-stream" };
    assert.equal((await get(stream)).status, 400);
    assert.equal((await get({ ...stream, "mcp-session-id": crypto.randomUUID() })).status, 404);
    assert.equal((await get({ accept: "application/json" })).status, 405);
  });

  it("ends the session's stream on its DELETE", async () => {
    const server = notesServer();
    const init = await server.fetch(legacyRequest("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    }));
    const session = init.headers.get("mcp-session-id")!;
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    const stream = await server.fetch(
      new Request("http://localhost/mcp", { headers: { ...headers, accept: "text/event-stream" } }),
    );
    assert.equal(stream.headers.get("content-type"), "text/event-stream");
    const ended = stream.text();
    assert.equal((await server.fetch(new Request("http://localhost/mcp", { method: "DELETE", headers }))).status, 204);
    await ended; // the body completes
  });

  it("refuses the stream and the subscription to another principal than the session's opener", async () => {
    const server = createServer({
      name: "notes",
      version: "1.0.0",
      auth: opaqueAuth(),
      bindings: [mcpBinding({ sessionStreams: sessionStreams() })],
    }).resource(defineResource(NOTES).read(() => "today"));
    const init = await server.fetch(legacyRequest(
      "initialize",
      {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
      1,
      "2025-11-25",
      bearer("reader"),
    ));
    await init.body?.cancel();
    const session = { "mcp-session-id": init.headers.get("mcp-session-id")! };
    const subscribe = (token: string) =>
      server.fetch(
        legacyRequest("resources/subscribe", { uri: NOTES }, 2, "2025-11-25", { ...session, ...bearer(token) }),
      );
    assert.equal((await (await subscribe("admin")).json()).error.code, -32600);
    assert.deepEqual((await (await subscribe("reader")).json()).result, {});
    const get = (token: string) =>
      server.fetch(
        new Request("http://localhost/mcp", {
          headers: { ...session, ...bearer(token), accept: "text/event-stream", "mcp-protocol-version": "2025-11-25" },
        }),
      );
    const refused = await get("admin");
    assert.equal(refused.status, 404);
    await refused.body?.cancel();
    const opened = await get("reader");
    assert.equal(opened.headers.get("content-type"), "text/event-stream");
    await opened.body?.cancel();
  });
});
