/**
 * A FIXTURE of an MCP Events server, written from issue 77's brief of the wire (events/list, events/subscribe,
 * events/unsubscribe; the verification challenge; signed deliveries), for the client's tests until the real
 * server lands: replace it with the real server's events then. It answers `events/*` JSON-RPC requests on every
 * endpoint (MCP's `/mcp`, MCP-lite's `/mcp-lite/v1/rpc`) and hands everything else to a real server of ours (the
 * handshakes, discovery, tools). Callbacks are allowed on 127.0.0.1 only; deliveries are signed by `standardwebhooks`.
 */
import { Webhook } from "standardwebhooks";
import { createServer } from "../../mod.ts";
import { serve } from "../../src/server/serve.ts";
import type { Listener } from "../../src/types.ts";

/** The events the fixture lists, one per page (so that a client follows `nextCursor`). */
const EVENTS = [
  {
    name: "order.shipped",
    description: "An order left the warehouse",
    delivery: ["webhook"],
    inputSchema: { type: "object", properties: { customerId: { type: "string" } }, required: ["customerId"] },
    payloadSchema: { type: "object", properties: { orderId: { type: "string" }, customerId: { type: "string" } } },
  },
  {
    name: "stock.low",
    delivery: ["webhook"],
    inputSchema: { type: "object", properties: { region: { type: "string" } } },
    payloadSchema: { type: "object", properties: { sku: { type: "string" } } },
  },
];

/** A subscription the fixture keeps. */
export interface FixtureSubscription {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  url: string;
  secrets: string[];
  profile: "chatgpt" | "sep";
}

/** The fixture, listening on 127.0.0.1. */
export interface EventsFixture {
  /** Its origin. */
  readonly url: string;
  /** Its subscriptions, by id. */
  readonly subscriptions: Map<string, FixtureSubscription>;
  /** The `events/*` methods it answered, in order. */
  readonly methods: string[];
  /** Delivers an occurrence to each matching subscription (arguments equal to the payload's same keys). */
  emit(name: string, data: Record<string, unknown>): Promise<number[]>;
  /** Stops listening. */
  close(): Promise<void>;
}

type Rpc = { id?: unknown; method?: unknown; params?: Record<string, unknown> };

/** Thrown to answer a JSON-RPC error. */
class RpcError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

/**
 * Starts the fixture.
 *
 * @returns The fixture.
 */
export async function startEventsFixture(): Promise<EventsFixture> {
  const inner = createServer({ name: "events-fixture", version: "0.0.1" });
  const subscriptions = new Map<string, FixtureSubscription>();
  const methods: string[] = [];
  let next = 0;

  const send = async (sub: FixtureSubscription, webhookId: string, body: string) => {
    const at = new Date();
    const response = await fetch(sub.url, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/json",
        "webhook-id": webhookId,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": sub.secrets.map((s) => new Webhook(s).sign(webhookId, at, body)).join(" "),
        "x-mcp-subscription-id": sub.id,
      },
      body,
      signal: AbortSignal.timeout(5000),
    });
    return response;
  };

  const subscribe = async (params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const name = String(params.name);
    if (!EVENTS.some((e) => e.name === name)) throw new RpcError(-32011, `No event ${name}`);
    const delivery = params.delivery as { mode?: string; url?: string; secret?: string } | undefined;
    if (delivery?.mode !== "webhook") throw new RpcError(-32014, "Only webhook delivery");
    const url = new URL(String(delivery.url));
    if (url.hostname !== "127.0.0.1") throw new RpcError(-32012, "Callback refused");
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    const id = `sub_${await digest(JSON.stringify([name, args, url.href]))}`;
    const meta = params._meta as Record<string, Record<string, Record<string, unknown>>> | undefined;
    const declared = meta?.["io.modelcontextprotocol/clientCapabilities"]?.extensions;
    const profile = declared?.["io.modelcontextprotocol/events"] === undefined ? "chatgpt" : "sep";
    const old = subscriptions.get(id);
    const secret = String(delivery.secret);
    const sub: FixtureSubscription = {
      id,
      name,
      arguments: args,
      url: url.href,
      secrets: old === undefined || old.secrets[0] === secret ? [secret] : [secret, old.secrets[0]],
      profile,
    };
    if (old === undefined) {
      const challenge = `ch_${++next}`;
      const body = JSON.stringify({ type: "verification", challenge });
      const answer = await send(sub, `ver_${next}`, body).catch(() => undefined);
      const echoed = answer?.ok ? await answer.json().catch(() => undefined) : undefined;
      if (echoed?.challenge !== challenge) throw new RpcError(-32015, "The callback did not echo the challenge");
    }
    subscriptions.set(id, sub);
    const refreshBefore = new Date(Date.now() + Number(params.ttlMs ?? 86_400_000)).toISOString();
    return { id, refreshBefore, cursor: null, truncated: false };
  };

  const unsubscribe = (params: Record<string, unknown>): Record<string, unknown> => {
    const delivery = params.delivery as { url?: string } | undefined;
    const found = typeof params.id === "string" ? subscriptions.get(params.id) : [...subscriptions.values()].find(
      (s) =>
        s.name === params.name && s.url === new URL(String(delivery?.url)).href &&
        JSON.stringify(s.arguments) === JSON.stringify(params.arguments ?? {}),
    );
    if (found === undefined) throw new RpcError(-32011, "No such subscription");
    subscriptions.delete(found.id);
    return {};
  };

  const answer = async (rpc: Rpc): Promise<Record<string, unknown>> => {
    const params = rpc.params ?? {};
    methods.push(String(rpc.method));
    switch (rpc.method) {
      case "events/list": {
        const at = typeof params.cursor === "string" ? Number(params.cursor) : 0;
        const page = { events: EVENTS.slice(at, at + 1) };
        return at + 1 < EVENTS.length ? { ...page, nextCursor: String(at + 1) } : page;
      }
      case "events/subscribe":
        return await subscribe(params);
      case "events/unsubscribe":
        return unsubscribe(params);
      default:
        throw new RpcError(-32601, `No method ${String(rpc.method)}`);
    }
  };

  const fetchHandler = async (request: Request): Promise<Response> => {
    if (request.method !== "POST") return inner.fetch(request);
    const text = await request.text();
    let rpc: Rpc | undefined;
    try {
      rpc = JSON.parse(text);
    } catch { /* the inner server answers */ }
    if (typeof rpc?.method !== "string" || !rpc.method.startsWith("events/")) {
      return inner.fetch(new Request(request.url, { method: "POST", headers: request.headers, body: text }));
    }
    try {
      return Response.json({ jsonrpc: "2.0", id: rpc.id, result: await answer(rpc) });
    } catch (error) {
      const code = error instanceof RpcError ? error.code : -32603;
      return Response.json({ jsonrpc: "2.0", id: rpc.id, error: { code, message: String(error) } });
    }
  };

  const listener: Listener = await serve({ fetch: fetchHandler }, { port: 0, hostname: "127.0.0.1", quiet: true });
  return {
    url: listener.url,
    subscriptions,
    methods,
    async emit(name, data) {
      const eventId = `evt_${++next}`;
      const body = JSON.stringify({ eventId, name, timestamp: new Date().toISOString(), data });
      const statuses: number[] = [];
      for (const sub of subscriptions.values()) {
        if (sub.name !== name || Object.entries(sub.arguments).some(([k, v]) => data[k] !== v)) continue;
        const response = await send(sub, sub.profile === "sep" ? `${sub.id}.${eventId}` : eventId, body);
        await response.body?.cancel();
        statuses.push(response.status);
      }
      return statuses;
    },
    close: () => listener.close(),
  };
}

/** base64url of a SHA-256 (the real server uses an HMAC under its token secret). */
async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
