/**
 * An MCP 2025 remote with sessions (Streamable HTTP, MCP 2025-11-25) answered in memory by a `fetch`: it records
 * each request (its HTTP method, session, `Authorization` and JSON-RPC method), opens a session per `initialize`,
 * keeps each session's standalone `GET` stream to push notifications on, and holds a `tools/call` until released.
 */

/** What the remote received. */
export interface Received {
  readonly http: string;
  readonly session: string | null;
  readonly authorization: string | null;
  readonly rpc?: string;
}

/** The remote: its fetch, what it received, and how to push on a session's stream or release held calls. */
export function sessionRemote() {
  const received: Received[] = [];
  const streams = new Map<string, ReadableStreamDefaultController<Uint8Array>>();
  const held: (() => void)[] = [];
  let sessions = 0;
  let holdCalls = false;
  const json = (id: unknown, result: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify({ jsonrpc: "2.0", id, result }), {
      headers: { "content-type": "application/json", ...headers },
    });
  const fetch = async (request: Request): Promise<Response> => {
    const session = request.headers.get("mcp-session-id");
    const authorization = request.headers.get("authorization");
    if (request.method !== "POST") {
      received.push({ http: request.method, session, authorization });
      if (request.method === "DELETE") {
        end(streams.get(session!));
        streams.delete(session!);
        return new Response(null, { status: 200 });
      }
      const body = new ReadableStream<Uint8Array>({ start: (c) => void streams.set(session!, c) });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    const message = await request.json();
    received.push({ http: "POST", session, authorization, rpc: message.method });
    if (message.id === undefined) return new Response(null, { status: 202 });
    switch (message.method) {
      case "initialize":
        return json(message.id, {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {}, resources: { subscribe: true }, logging: {} },
          serverInfo: { name: "remote", version: "1.0.0" },
        }, { "mcp-session-id": `s${++sessions}` });
      case "tools/list":
        return json(message.id, { tools: [{ name: "echo", inputSchema: { type: "object" } }] });
      case "prompts/list":
        return json(message.id, { prompts: [] });
      case "resources/templates/list":
        return json(message.id, { resourceTemplates: [] });
      case "resources/list":
        return json(message.id, { resources: [{ uri: "demo://r", name: "r" }] });
      case "tools/call":
        if (holdCalls) await new Promise<void>((resolve) => held.push(resolve));
        return json(message.id, { content: [{ type: "text", text: "ok" }] });
      default:
        return json(message.id, {});
    }
  };
  return {
    fetch,
    received,
    /** Sends a notification on a session's standalone stream; whether it has one. */
    push(session: string, method: string, params: Record<string, unknown>): boolean {
      const stream = streams.get(session);
      const data = JSON.stringify({ jsonrpc: "2.0", method, params });
      try {
        stream?.enqueue(new TextEncoder().encode(`data: ${data}\n\n`));
      } catch {
        return false; // the client cancelled it
      }
      return stream !== undefined;
    },
    /** From now on `tools/call` waits for {@link release}. */
    holdCalls(on: boolean) {
      holdCalls = on;
    },
    /** How many calls wait. */
    waiting: () => held.length,
    /** Lets the held calls answer. */
    release() {
      for (const resolve of held.splice(0)) resolve();
    },
    /** The sessions opened, and those ended. */
    opened: () => received.filter((r) => r.rpc === "initialize").length,
    deleted: () => received.filter((r) => r.http === "DELETE").map((r) => r.session),
    /** Closes every stream. */
    close() {
      for (const stream of streams.values()) end(stream);
      streams.clear();
    },
  };
}

/** Closes a stream the client may have cancelled. */
function end(stream: ReadableStreamDefaultController<Uint8Array> | undefined): void {
  try {
    stream?.close();
  } catch {
    // already closed
  }
}
