/**
 * The Durable Object that holds one result-store entry, or one set: Cloudflare runs one instance of it per id,
 * anywhere, and delivers its requests one at a time while its storage is read (input gates), so "first writer wins"
 * is a read and a write in one request. It expires its entry (or set) with an alarm. The notifier's object is one
 * more instance: it holds the listening streams' WebSockets and sends each published message to all of them.
 *
 * @module
 */
import {
  CHUNK_UNITS,
  chunkKey,
  type EntryMeta,
  isObjectRequest,
  MAX_CHUNKS,
  MEMBER_PREFIX,
  META_KEY,
  NOTIFIER_URL,
  type ObjectAnswer,
  type ObjectRequest,
  SET_KEY,
} from "./object-protocol.ts";
import { webSocketPair } from "../runtime/workers/websocket-pair.ts";

/** What the object uses of its `DurableObjectStorage` (the key-value API, on either storage backend). */
interface StorageLike {
  get(key: string): Promise<unknown>;
  get(keys: string[]): Promise<Map<string, unknown>>;
  put(entries: Record<string, unknown>): Promise<void>;
  list(options: { prefix: string }): Promise<Map<string, unknown>>;
  delete(keys: string[]): Promise<number>;
  deleteAll(): Promise<void>;
  setAlarm(scheduledTime: number): Promise<void>;
  deleteAlarm(): Promise<void>;
}

/**
 * What the object uses of its `DurableObjectState` for the notifier: the WebSocket Hibernation API, which keeps
 * accepted sockets open while the object is evicted from memory, and lists those still open.
 */
interface SocketsLike {
  acceptWebSocket(socket: WebSocket): void;
  getWebSockets(): WebSocket[];
}

const NOTIFIER_PATH = new URL(NOTIFIER_URL).pathname;

/**
 * The Durable Object class of `durableObjectResultStore()`: export it from the Worker's main module and bind it
 * (wrangler: a `durable_objects` binding with this class name and a migration that creates it,
 * `new_sqlite_classes`). Each entry (and each set) of the store is one instance, expiring with an alarm. It serves
 * `durableObjectNotifier()` too: one instance per channel holds every listening stream's WebSocket (hibernatable:
 * the object may leave memory while they stay open) and sends each published message to all of them.
 *
 * @example
 * ```ts ignore
 * // The Worker's main module (wrangler.jsonc: "durable_objects": { "bindings": [{ "name": "MCPLITE_RESULTS",
 * // "class_name": "ResultObject" }] }, "migrations": [{ "tag": "v1", "new_sqlite_classes": ["ResultObject"] }])
 * export { ResultObject } from "@mcplite/sdk/durable-object";
 * ```
 */
export class ResultObject {
  readonly #storage: StorageLike;
  readonly #sockets: SocketsLike;

  /**
   * Made by workerd, once per entry id, with the object's state.
   *
   * @param state The object's `DurableObjectState`: its storage, and its WebSockets for the notifier.
   */
  constructor(state: { readonly storage: unknown }) {
    this.#storage = state.storage as StorageLike;
    this.#sockets = state as unknown as SocketsLike;
  }

  /**
   * Answers one request of the store (read, write unless final, and if absent or as expected where asked, or delete
   * the record) or of the notifier
   * (subscribe with a WebSocket, publish, count the subscribed sockets).
   *
   * @param request A `POST` with the store's JSON request, or a notifier's request.
   * @returns The JSON answer; 400 to a request the store never sends, 413 to an entry over the object's bound.
   */
  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname === NOTIFIER_PATH) return await this.#notifier(request);
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      body = undefined;
    }
    if (request.method !== "POST" || !isObjectRequest(body)) {
      return Response.json({ error: "not a request of the result store" }, { status: 400 });
    }
    try {
      return Response.json(await this.#answer(body));
    } catch (error) {
      if (error instanceof RangeError) return Response.json({ error: error.message }, { status: 413 });
      throw error;
    }
  }

  /**
   * A subscribed socket closed (its stream ended, or its isolate went away): it is answered, and
   * `getWebSockets()` no longer lists it (RFC 6455, section 5.5.1: the close is echoed).
   *
   * @param socket The socket.
   */
  webSocketClose(socket: WebSocket): void {
    try {
      socket.close(1000);
    } catch {
      // closed already: nothing to answer
    }
  }

  /**
   * A subscribed socket failed: it is closed, as a closed one is.
   *
   * @param socket The socket.
   */
  webSocketError(socket: WebSocket): void {
    this.webSocketClose(socket);
  }

  /** The notifier's requests: a WebSocket upgrade subscribes, a `POST` publishes its body, a `GET` counts. */
  async #notifier(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() === "websocket") {
      const pair = webSocketPair();
      if (pair === undefined) return Response.json({ error: "WebSockets need workerd" }, { status: 501 });
      this.#sockets.acceptWebSocket(pair[1]); // hibernatable: not accept(), which would hold the object in memory
      return new Response(null, { status: 101, webSocket: pair[0] } as ResponseInit);
    }
    const sockets = this.#sockets.getWebSockets();
    if (request.method === "POST") {
      const message = await request.text();
      for (const socket of sockets) {
        try {
          socket.send(message);
        } catch {
          // closing as it is sent to: its close handler drops it
        }
      }
    }
    return Response.json({ listeners: sockets.length });
  }

  /**
   * Deletes the entry, or the set, once it has expired (an entry written again, or a set lengthened, since then
   * moves the alarm on).
   */
  async alarm(): Promise<void> {
    const ends = [await this.#meta(), await this.#set()].flatMap((held) => held === undefined ? [] : [held.expiresAt]);
    if (ends.length === 0) return;
    const last = Math.max(...ends);
    if (Date.now() < last) return await this.#storage.setAlarm(last);
    await this.#storage.deleteAll();
  }

  async #answer(request: ObjectRequest): Promise<ObjectAnswer> {
    if (request.op === "add" || request.op === "remove" || request.op === "members") {
      return await this.#setAnswer(request);
    }
    if (request.op === "get") {
      const meta = await this.#meta();
      if (meta === undefined || Date.now() >= meta.expiresAt) return { json: null }; // the alarm may come late
      return { json: await this.#json(meta) };
    }
    if (request.op === "delete") {
      await this.#storage.deleteAll();
      await this.#storage.deleteAlarm();
      return {};
    }
    const kept = await this.#meta();
    const live = kept !== undefined && Date.now() < kept.expiresAt ? kept : undefined;
    if (live?.ended) return { written: false };
    if (request.if === "absent" && live !== undefined) return { written: false };
    if (typeof request.if === "object" && (live === undefined ? null : await this.#json(live)) !== request.if.json) {
      return { written: false };
    }
    const chunks = Math.max(1, Math.ceil(request.json.length / CHUNK_UNITS));
    if (chunks > MAX_CHUNKS) throw new RangeError(`an entry of ${request.json.length} characters is too large`);
    const expiresAt = Date.now() + Math.ceil(request.ttlMs);
    const meta: EntryMeta = { ended: request.ended, expiresAt, chunks };
    const entries: Record<string, unknown> = { [META_KEY]: meta };
    for (let n = 0; n < chunks; n++) entries[chunkKey(n)] = request.json.slice(n * CHUNK_UNITS, (n + 1) * CHUNK_UNITS);
    // The metadata and every chunk in one put(): the entry is written whole or not at all; a shorter entry's
    // leftover chunks go in the same batch (no await between: the storage coalesces them into one write).
    const stale = Array.from({ length: Math.max(0, (kept?.chunks ?? 0) - chunks) }, (_, i) => chunkKey(chunks + i));
    const written = this.#storage.put(entries);
    const removed = stale.length > 0 ? this.#storage.delete(stale) : undefined;
    const alarm = this.#storage.setAlarm(expiresAt);
    await Promise.all([written, removed, alarm]);
    return { written: true };
  }

  /** A record's JSON, from its chunks. */
  async #json(meta: EntryMeta): Promise<string> {
    const keys = Array.from({ length: meta.chunks }, (_, n) => chunkKey(n));
    const chunks = await this.#storage.get(keys);
    return keys.map((key) => chunks.get(key) as string).join("");
  }

  async #meta(): Promise<EntryMeta | undefined> {
    return (await this.#storage.get(META_KEY)) as EntryMeta | undefined;
  }

  /**
   * A set's requests: its members are storage keys (`member:<member>`), listed by prefix; its lifetime is one more
   * key, lengthened by an add, never shortened; a set added to after it expired (the alarm may come late) starts
   * empty.
   */
  async #setAnswer(request: ObjectRequest & { op: "add" | "remove" | "members" }): Promise<ObjectAnswer> {
    if (request.op === "remove") {
      await this.#storage.delete([MEMBER_PREFIX + request.member]);
      return {};
    }
    const set = await this.#set();
    const now = Date.now();
    const live = set !== undefined && now < set.expiresAt;
    if (request.op === "members") {
      if (!live) return { members: [] };
      const members = await this.#storage.list({ prefix: MEMBER_PREFIX });
      return { members: [...members.keys()].map((key) => key.slice(MEMBER_PREFIX.length)) };
    }
    if (set !== undefined && !live) { // the members of the set that ended, 128 keys a delete()
      const stale = [...(await this.#storage.list({ prefix: MEMBER_PREFIX })).keys()];
      for (let i = 0; i < stale.length; i += 128) await this.#storage.delete(stale.slice(i, i + 128));
    }
    const expiresAt = Math.max(live ? set.expiresAt : 0, now + Math.ceil(request.ttlMs));
    const written = this.#storage.put({ [SET_KEY]: { expiresAt }, [MEMBER_PREFIX + request.member]: true });
    const alarm = expiresAt === set?.expiresAt ? undefined : this.#storage.setAlarm(expiresAt);
    await Promise.all([written, alarm]);
    return {};
  }

  async #set(): Promise<{ readonly expiresAt: number } | undefined> {
    return (await this.#storage.get(SET_KEY)) as { readonly expiresAt: number } | undefined;
  }
}
