/**
 * SSE polling for 2025-11-25 clients (`mcpBinding({ sessionStreams: sessionStreams({ polling }) })`; MCP 2025-11-25, Transports:
 * "Resumability and Redelivery"; SEP-1699): a call's stream opens with a priming event (an id, `retry`, empty data),
 * each event has an id, and the server closes the connection mid-call; the call goes on, and the client's GET with
 * `Last-Event-ID` and its session gets the events it missed, then the rest, the result last. Our client polls such a
 * call to its end, however many connections it takes. Older revisions, and servers that do not poll, answer as before.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventSourceMessage } from "eventsource-parser";
import { createServer, defineExtension, defineTool, mcpBinding, serve, sessionStreams } from "../../../mod.ts";
import { createClient } from "../../../src/client/mod.ts";
import { BASE, legacyRequest } from "../../helpers/request.ts";
import { readSse } from "../../helpers/sse.ts";

/** Resolves when `release()` is called: the test moves the tool on, event by event. */
function gate() {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => release = resolve);
  return { opened, release };
}

/**
 * A server whose `step` tool logs, waits for `first`, logs again (then tells `logged`), waits for `second`, and
 * answers; its 2025-11-25 streams are closed `closeAfterMs` after they open. With `redact`, message middleware
 * rewrites each log message it sends.
 */
function pollingServer(closeAfterMs: number, polling = true, redact = false) {
  const first = gate(), second = gate(), logged = gate();
  const server = createServer({
    name: "polling",
    version: "1.0.0",
    bindings: [
      mcpBinding(polling ? { sessionStreams: sessionStreams({ polling: { closeAfterMs, retryMs: 0 } }) } : {}),
    ],
  }).tool(
    defineTool("step").describe("Logs, waits, logs again, waits, answers").handle(async (_args, ctx) => {
      ctx.log("info", "started");
      await first.opened;
      ctx.log("info", "halfway");
      logged.release();
      await second.opened;
      return ctx.signal.aborted ? "cancelled" : "done"; // a call cancelled meanwhile would not be done
    }),
  );
  if (redact) {
    server.extension(
      defineExtension().intercept(async (message, info, next) => {
        if (info.direction !== "out" || info.method !== "notifications/message") return void await next();
        const params = message.params as { data: string };
        return await next({ ...message, params: { ...params, data: `redacted ${params.data}` } });
      }),
    );
  }
  return { server, first, second, logged };
}

/** `initialize` at `version`: the session id. */
async function initialize(fetch: (request: Request) => Promise<Response>, version = "2025-11-25") {
  const response = await fetch(legacyRequest(
    "initialize",
    {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    },
    1,
    version,
  ));
  await response.body?.cancel();
  return response.headers.get("mcp-session-id")!;
}

/** A GET resuming a stream. */
function resume(session: string | null, lastEventId: string | null): Request {
  const headers: Record<string, string> = { accept: "text/event-stream", "mcp-protocol-version": "2025-11-25" };
  if (session !== null) headers["mcp-session-id"] = session;
  if (lastEventId !== null) headers["last-event-id"] = lastEventId;
  return new Request(`${BASE}/mcp`, { headers });
}

/** What an event carries: its id, and its JSON-RPC message (`null` for a priming event). */
function messageOf(event: EventSourceMessage) {
  return { id: event.id, message: event.data === "" ? null : JSON.parse(event.data) };
}

describe("SSE polling (2025-11-25)", () => {
  it("refuses a closeAfterMs or retryMs that is no whole number of ms in a timer's range, as it is made", () => {
    const refused = [{ closeAfterMs: 0 }, { closeAfterMs: 1.5 }, { closeAfterMs: 2 ** 31 }];
    for (const options of [...refused, { closeAfterMs: 1, retryMs: -1 }]) {
      assert.throws(() => sessionStreams({ polling: options }), TypeError, JSON.stringify(options));
    }
    assert.doesNotThrow(() => sessionStreams({ polling: { closeAfterMs: 1, retryMs: 0 } }));
  });

  it("primes the stream, closes it mid-call, and a GET with Last-Event-ID gets what was missed, then the result", async () => {
    const { server, first, second, logged } = pollingServer(50);
    const session = await initialize(server.fetch);
    const post = await server.fetch(legacyRequest("tools/call", { name: "step", arguments: {} }, 7, "2025-11-25", {
      "mcp-session-id": session,
    }));
    assert.equal(post.headers.get("content-type"), "text/event-stream");
    const raw: string[] = [];
    const events = (await readSse(post.clone())).map(messageOf); // the server closes it while the call waits
    for await (const chunk of post.body!.pipeThrough(new TextDecoderStream())) raw.push(chunk);
    assert.match(raw.join(""), /^id: [^\n]+-0\nretry: 0\ndata:\n\n/, "the priming event: an id, retry, empty data");
    assert.equal(events.length, 2, JSON.stringify(events));
    assert.equal(events[0].message, null);
    assert.equal(events[1].message.params.data, "started");
    const stream = events[0].id!.replace(/-0$/, "");
    assert.equal(events[1].id, `${stream}-1`);

    first.release();
    await logged.opened; // "halfway" is sent while no connection is open: kept for the client
    const resumed = await server.fetch(resume(session, events[1].id!));
    assert.equal(resumed.status, 200);
    assert.equal(resumed.headers.get("content-type"), "text/event-stream");
    const reading = readSse(resumed);
    second.release();
    const after = (await reading).map(messageOf);
    assert.deepEqual(after.map((e) => e.id), [`${stream}-1`, `${stream}-2`, `${stream}-3`]);
    assert.equal(after[0].message, null, "primed again, at the event the client has");
    assert.equal(after[1].message.params.data, "halfway", "missed while no connection was open");
    assert.deepEqual(after[2].message, {
      jsonrpc: "2.0",
      id: 7,
      result: { content: [{ type: "text", text: "done" }] },
    });
  });

  it("carries on every connection what the message middleware sends, the events kept for a resumption too", async () => {
    const { server, first, second, logged } = pollingServer(50, true, true);
    const session = await initialize(server.fetch);
    const post = await server.fetch(legacyRequest("tools/call", { name: "step", arguments: {} }, 7, "2025-11-25", {
      "mcp-session-id": session,
    }));
    const events = (await readSse(post)).map(messageOf);
    assert.equal(events[1].message.params.data, "redacted started");
    first.release();
    await logged.opened; // sent while no connection is open: kept for the client
    const reading = readSse(await server.fetch(resume(session, events[1].id!)));
    second.release();
    const after = (await reading).map(messageOf);
    assert.equal(after[1].message.params.data, "redacted halfway", JSON.stringify(after));
    assert.equal(after[2].message.result.content[0].text, "done");
  });

  it("resumes only a stream of the GET's own session; without Last-Event-ID, a GET is the session's own stream", async () => {
    const { server, first, second } = pollingServer(20);
    try {
      const session = await initialize(server.fetch);
      const other = await initialize(server.fetch);
      const post = await server.fetch(legacyRequest("tools/call", { name: "step", arguments: {} }, 1, "2025-11-25", {
        "mcp-session-id": session,
      }));
      const [priming] = await readSse(post);
      for (
        const [request, status] of [
          [resume(other, priming.id!), 400],
          [resume(null, priming.id!), 400],
          [resume(session, `${crypto.randomUUID()}-0`), 400],
          [resume(session, "not an event id"), 400],
          [resume(session, null), 200], // session-stream.test.ts
        ] as const
      ) {
        const response = await server.fetch(request);
        await response.body?.cancel();
        assert.equal(response.status, status, `${request.headers.get("last-event-id")}`);
      }
      const resumed = await server.fetch(resume(session, priming.id!));
      assert.equal(resumed.status, 200);
      await resumed.body!.cancel();
    } finally {
      first.release();
      second.release();
    }
  });

  it("leaves 2025-06-18 calls and servers that do not poll as they were: no ids, no priming, one stream", async () => {
    for (const [version, polling] of [["2025-06-18", true], ["2025-11-25", false]] as const) {
      const { server, first, second } = pollingServer(10, polling);
      const session = await initialize(server.fetch, version);
      const post = await server.fetch(legacyRequest("tools/call", { name: "step", arguments: {} }, 1, version, {
        "mcp-session-id": session,
      }));
      const reading = readSse(post);
      first.release();
      second.release();
      const events = await reading;
      assert.deepEqual(events.map((e) => e.id), [undefined, undefined, undefined], `${version}, polling ${polling}`);
      assert.equal(JSON.parse(events.at(-1)!.data).result.content[0].text, "done");
    }
  });

  it("keeps the call running over HTTP when the server closes its connection (the runtime's request signal)", async () => {
    const { server, first, second } = pollingServer(20);
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    let gets = 0;
    const client = createClient(`${listener.url}/mcp`, {
      protocolVersion: "2025-11-25",
      fetch: (request: Request) => {
        if (request.method === "GET" && ++gets === 2) first.release(); // the first connection has closed
        if (gets === 3) second.release();
        return fetch(request);
      },
    });
    try {
      assert.equal(await client.call("step", {}), "done");
    } finally {
      first.release();
      second.release();
      await client.close();
      await listener.close();
    }
  });

  it("takes a client's dropped connection for no cancellation: the call goes on, and the client resumes it", async () => {
    const { server, first, second } = pollingServer(60_000);
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const url = (request: Request) => new Request(`${listener.url}/mcp`, request);
    try {
      const session = await initialize((request) => fetch(url(request)));
      const dropped = new AbortController();
      const post = await fetch(
        url(
          legacyRequest("tools/call", { name: "step", arguments: {} }, 3, "2025-11-25", { "mcp-session-id": session }),
        ),
        { signal: dropped.signal },
      );
      let started: string | undefined;
      await readSse(post, 10_000, (event) => {
        if (event.data.includes("started")) {
          started = event.id;
          dropped.abort(); // the client's connection drops (MCP 2025-11-25: a disconnection is no cancellation)
        }
      }).catch(() => {});
      first.release();
      second.release();
      const resumed = await fetch(url(resume(session, started!)));
      const events = (await readSse(resumed)).map(messageOf);
      assert.equal(events.at(-1)?.message.result.content[0].text, "done", JSON.stringify(events));
    } finally {
      first.release();
      second.release();
      await listener.close();
    }
  });

  it("lets our client follow a call across every connection it takes, more than a few", async () => {
    const { server, first, second } = pollingServer(5);
    let gets = 0;
    const client = createClient(`${BASE}/mcp`, {
      protocolVersion: "2025-11-25",
      fetch: (request: Request) => {
        // Past the sixth resumption, the tool moves on, and answers on a later connection.
        if (request.method === "GET" && ++gets === 7) first.release();
        if (gets === 9) second.release();
        return server.fetch(request);
      },
    });
    try {
      assert.equal(await client.call("step", {}), "done");
      assert.ok(gets >= 9, `${gets} resumptions`);
    } finally {
      first.release();
      second.release();
      await client.close();
    }
  });
});
