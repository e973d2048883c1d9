/**
 * Two callers behind one gateway in front of server-everything over Streamable HTTP never share what the remote
 * keeps per MCP 2025 session (MCP 2025-11-25, Transports: Session Management): each caller has its own session at
 * the remote. server-everything keys per session the log level it was set (`logging/setLevel`), the URL-elicitation
 * prerequisite it issued (`trigger-url-elicitation` with `errorPath`, -32042: the same call again is let through),
 * its simulated logging (`toggle-simulated-logging`) and its resource updates (`toggle-subscriber-updates`, sent for
 * the URIs that session subscribed to): what one caller does there never reaches the other, whether the callers are
 * MCP 2025 sessions on stdio connections to the gateway or official v1 clients over its Streamable HTTP (each known
 * by its `Mcp-Session-Id`); callers with an identity are known by their principal. A caller's session is closed at
 * the remote (`DELETE`) when the gateway lets it go: past `sessions.max`, or `sessions.idleMs` after its last use.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { createServer } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import type { AuthInfo } from "../../src/core/call/host.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { type PipedServer, pipeServer } from "../helpers/stdio.ts";
import { everythingHttp } from "./everything-peer.ts";
import { gatewayServer, served, waitFor } from "./gateway.ts";
import type { RemoteProcess } from "./remote-process.ts";
import { protectedResource } from "../../src/auth/mod.ts";
// deno-lint-ignore no-explicit-any
type Any = any;
const V1 = "@modelcontextprotocol/sdk"; // its `.js` subpaths, which Deno's checker does not resolve
const { StreamableHTTPClientTransport: HttpV1 } = await import(`${V1}/client/streamableHttp.js`) as Any;
const { ElicitRequestSchema } = await import(`${V1}/types.js`) as Any;

/** How long the remote may take to send what it owes (its period is 5 s): a bound, not a measure. */
const PERIOD_MS = 20_000;

type Message = Record<string, any>;

describe("proxy() of server-everything over HTTP: two callers kept apart", () => {
  const stop = new AbortController();
  let remote: RemoteProcess;
  const sent: { method: string; session: string | null; body?: Message }[] = [];
  // The gateway's own fetch to the remote: each request's method and session read off it.
  const fetch = async (request: Request) => {
    const session = request.headers.get("mcp-session-id");
    const body = request.method === "POST" ? await request.clone().json() : undefined;
    sent.push({ method: request.method, session, body });
    return await globalThis.fetch(request);
  };
  before(async () => {
    remote = everythingHttp();
    await remote.start();
  });
  after(async () => {
    stop.abort();
    await remote?.kill();
  });

  async function gatewayWithTwoCallers(options: Parameters<typeof proxy>[1] = {}) {
    const everything = await proxy(remote.url, {
      transport: "mcp",
      fetch,
      refreshMs: 0,
      signal: stop.signal,
      ...options,
    });
    const gateway = gatewayServer().group("everything", everything);
    return { gateway, a: await session(gateway, "a"), b: await session(gateway, "b") };
  }

  /** An MCP 2025 session on a stdio connection to the gateway, declaring both elicitation modes. */
  async function session(gateway: Parameters<typeof pipeServer>[0], name: string): Promise<PipedServer> {
    const piped = pipeServer(gateway);
    const capabilities = { elicitation: { form: {}, url: {} } };
    const clientInfo = { name, version: "1" };
    piped.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities, clientInfo },
    });
    await piped.answer(1);
    piped.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return piped;
  }

  /** Sends a request on a caller's connection and waits for its answer. */
  let id = 100;
  async function ask(caller: PipedServer, method: string, params: Message): Promise<Message> {
    const mine = ++id;
    caller.send({ jsonrpc: "2.0", id: mine, method, params });
    return await caller.answer(mine);
  }

  /** A call of the remote's `echo`, told apart from others by its message. */
  const echo = (message: string) => ({ name: "everything.echo", arguments: { message } });
  /** The remote session the call of `echo` with this message went in. */
  function sessionOf(message: string): string {
    const call = sent.find((s) => s.body?.method === "tools/call" && s.body?.params?.arguments?.message === message);
    assert.ok(call?.session, `the session of ${message}`);
    return call.session;
  }

  /** What a caller has heard so far, once everything sent to it before a ping was written. */
  async function heard(caller: PipedServer, match: (m: Message) => boolean): Promise<Message[]> {
    await ask(caller, "ping", {});
    return caller.messages.filter(match);
  }

  it("a URL-elicitation prerequisite one caller was given is never satisfied for the other", async () => {
    const { a, b } = await gatewayWithTwoCallers();
    try {
      const call = {
        name: "everything.trigger-url-elicitation",
        arguments: { url: "https://example.com/x", errorPath: true },
      };
      const first = await ask(a, "tools/call", call);
      assert.equal(first.error?.code, -32042, JSON.stringify(first));
      // The remote remembers the prerequisite it issued per session: B's same call is B's first, refused alike.
      const other = await ask(b, "tools/call", call);
      assert.equal(other.error?.code, -32042, JSON.stringify(other));
      assert.deepEqual(await heard(b, (m) => m.method === "elicitation/create"), []);
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it("one caller's logs and resource updates never reach the other", async () => {
    const { gateway, a, b } = await gatewayWithTwoCallers();
    const listed = await createClient(gateway, { transport: "mcp-lite" }).listResources();
    const uri = String(listed.find((r) => String(r.uri).startsWith("demo://resource/static/"))?.uri);
    // The remote's simulated logs name the session they are for (its own acknowledgements say "from session").
    const isLog = (m: Message) => m.method === "notifications/message" && /SessionId /.test(String(m.params.data));
    const isUpdate = (m: Message) => m.method === "notifications/resources/updated" && m.params.uri === uri;
    const call = (name: string) => ({ name: `everything.${name}`, arguments: {} });
    try {
      // Both choose a level and subscribe to the same URI; only A turns the remote's logs and updates on.
      for (const caller of [a, b]) {
        assert.deepEqual((await ask(caller, "logging/setLevel", { level: "debug" })).result, {});
        assert.deepEqual((await ask(caller, "resources/subscribe", { uri })).result, {});
      }
      assert.equal((await ask(a, "tools/call", call("toggle-simulated-logging"))).error, undefined);
      assert.equal((await ask(a, "tools/call", call("toggle-subscriber-updates"))).error, undefined);
      try {
        await a.next(isLog, PERIOD_MS);
        await a.next(isUpdate, PERIOD_MS);
        assert.deepEqual(await heard(b, isLog), [], "B never turned logging on: no log of A's session");
        assert.deepEqual(await heard(b, isUpdate), [], "B never turned updates on: no update of A's session");
      } finally {
        await ask(a, "tools/call", call("toggle-simulated-logging")); // and stop
        await ask(a, "tools/call", call("toggle-subscriber-updates"));
      }
      // Each subscribed at the remote in a session of its own.
      const subscribed = sent.filter((s) => s.body?.method === "resources/subscribe" && s.body?.params?.uri === uri);
      assert.equal(new Set(subscribed.slice(-2).map((s) => s.session)).size, 2, JSON.stringify(subscribed));
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it("sets each caller's log level in its own session, never in another's", async () => {
    const { a, b } = await gatewayWithTwoCallers();
    try {
      assert.deepEqual((await ask(a, "logging/setLevel", { level: "error" })).result, {});
      assert.deepEqual((await ask(b, "logging/setLevel", { level: "notice" })).result, {});
      assert.equal((await ask(a, "tools/call", echo("level a"))).error, undefined);
      assert.equal((await ask(b, "tools/call", echo("level b"))).error, undefined);
      const levels = (session: string) =>
        sent.filter((s) => s.session === session && s.body?.method === "logging/setLevel")
          .map((s) => s.body?.params?.level);
      assert.deepEqual(levels(sessionOf("level a")), ["error"]);
      assert.deepEqual(levels(sessionOf("level b")), ["notice"]);
      // A level changed is set again, in that session alone.
      assert.deepEqual((await ask(a, "logging/setLevel", { level: "debug" })).result, {});
      assert.equal((await ask(a, "tools/call", echo("level a again"))).error, undefined);
      assert.deepEqual(levels(sessionOf("level a")), ["error", "debug"]);
      assert.deepEqual(levels(sessionOf("level b")), ["notice"]);
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it("two official v1 clients over the gateway's HTTP: the prerequisite of one is never the other's", async () => {
    const everything = await proxy(remote.url, { transport: "mcp", fetch, refreshMs: 0, signal: stop.signal });
    const front = await served(gatewayServer().group("everything", everything));
    const asked: string[] = [];
    const connect = async (name: string) => {
      const client = new ClientV1({ name, version: "1.32.2" }, {
        capabilities: { elicitation: { form: {}, url: {} } },
      });
      client.setRequestHandler(ElicitRequestSchema, (request: Any) => {
        asked.push(`${name} ${request.params.url}`);
        return { action: "accept" };
      });
      await client.connect(new HttpV1(new URL(`${front.url}/mcp`)));
      return client;
    };
    const [a, b] = [await connect("a"), await connect("b")];
    const call = {
      name: "everything.trigger-url-elicitation",
      arguments: { url: "https://example.com/v1", errorPath: true },
    };
    try {
      await assert.rejects(a.callTool(call), (error: Any) => error.code === -32042);
      await assert.rejects(b.callTool(call), (error: Any) => error.code === -32042);
      assert.deepEqual(asked, [], "neither was let through to the page");
    } finally {
      await Promise.all([a.close(), b.close()]);
      await front.close();
    }
  });

  it("knows a caller by its principal, on any wire: one session per principal, another for another", async () => {
    const before = sent.length;
    const everything = await proxy(remote.url, { transport: "mcp", fetch, refreshMs: 0, signal: stop.signal });
    const own = sent.slice(before).find((s) => s.body?.method === "tools/list")?.session;
    const gateway = createServer({
      name: "gateway",
      version: "1.0.0",
      auth: protectedResource({
        resource: "https://gateway.example.com",
        authorizationServers: ["https://auth.example.com"],
        // Two tokens of Ada's, one of Bob's.
        verify: (token: string): AuthInfo | undefined => ({ subject: token.split("-")[0], token }),
      }),
    }).group("everything", everything);
    const as = (token: string, transport: "mcp-lite" | "mcp") =>
      createClient(gateway, { transport, headers: { authorization: `Bearer ${token}` } });
    await as("ada-1", "mcp-lite").call("everything.echo", { message: "ada over MCP-lite" });
    await as("ada-2", "mcp").call("everything.echo", { message: "ada over MCP" });
    await as("bob-1", "mcp-lite").call("everything.echo", { message: "bob" });
    assert.equal(sessionOf("ada over MCP-lite"), sessionOf("ada over MCP"));
    assert.notEqual(sessionOf("bob"), sessionOf("ada over MCP"));
    assert.ok(own && ![sessionOf("bob"), sessionOf("ada over MCP")].includes(own), "neither is the proxy's own");
  });

  it("closes a caller's remote session (DELETE) once idle", async () => {
    const { a, b } = await gatewayWithTwoCallers({ sessions: { idleMs: 100 } });
    try {
      assert.equal((await ask(a, "tools/call", echo("idle"))).error, undefined);
      const used = sessionOf("idle");
      await waitFor(
        "A's idle session to be deleted",
        () => sent.some((s) => s.method === "DELETE" && s.session === used),
      );
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it("closes a caller's remote session (DELETE) past the most it keeps", async () => {
    const { a, b } = await gatewayWithTwoCallers({ sessions: { max: 1 } });
    try {
      assert.equal((await ask(a, "tools/call", echo("first"))).error, undefined);
      const first = sessionOf("first");
      assert.equal((await ask(b, "tools/call", echo("second"))).error, undefined);
      assert.notEqual(sessionOf("second"), first);
      // A's session is the least recently used: let go, and ended at the remote.
      await waitFor("A's session to be deleted", () => sent.some((s) => s.method === "DELETE" && s.session === first));
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });
});
