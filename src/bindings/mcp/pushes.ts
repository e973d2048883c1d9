/**
 * What a 2025 client on a connection (stdio, a WebSocket) hears outside its requests once `initialize` opened its
 * session (MCP 2025-11-25): list changes, updates of the resources it subscribed to (watched meanwhile: a proxied
 * one subscribes at its remote), and, after `logging/setLevel`, the logs the server sends outside any request
 * from that level up. Over HTTP, a session's `GET` stream carries them where `sessionStreams()` is served
 * (`session-stream.ts`); a stateless server has none, and advertises none.
 *
 * @module
 */
import {
  type AuthInfo,
  callerKey,
  heardBy,
  LOG_LEVELS,
  type Registry,
  type RegistryChange,
  type WatchedResource,
} from "../../core/mod.ts";
import { notificationMessage } from "../jsonrpc.ts";
import { featureResource } from "./feature-methods.ts";
import type { McpRequest } from "./mcp-request.ts";

/** A log level (MCP 2025-11-25, Logging). */
type Level = (typeof LOG_LEVELS)[number];

/** The list-changed notification of each kind of list. */
const LIST_CHANGED: Readonly<Record<string, string>> = {
  tools: /* @__PURE__ */ notificationMessage("notifications/tools/list_changed"),
  prompts: /* @__PURE__ */ notificationMessage("notifications/prompts/list_changed"),
  resources: /* @__PURE__ */ notificationMessage("notifications/resources/list_changed"),
};

/** The pushes of one connection. */
export class ConnectionPushes {
  readonly #registry: Registry;
  readonly #send: (message: string) => void;
  /** Resources the client subscribed to (`resources/subscribe`), each with how to stop watching it, if watched. */
  readonly #subscribed = new Map<string, (() => void) | undefined>();
  /** The level the client chose with `logging/setLevel`; none chosen, no logs outside requests. */
  #logLevel: Level | undefined;
  #stop: (() => void) | undefined;
  /** Who the client is (`callerKey()`), once its session opened: what is meant for another caller is not sent. */
  #caller: string | undefined;
  readonly #auth: AuthInfo | undefined;
  /** Where the level lives when not here: a 2025 session's over HTTP, which `logging/setLevel` sets. */
  readonly #levelOf: (() => Level | undefined) | undefined;

  /**
   * Creates the pushes of a connection; none go out before {@link start}.
   *
   * @param registry The server's registry.
   * @param send Sends a message on the connection.
   * @param auth The caller the connection's authentication verified, if any.
   * @param levelOf The log level chosen, where another owns it (a session over HTTP); by default the one
   *   {@link follow} saw.
   */
  constructor(
    registry: Registry,
    send: (message: string) => void,
    auth?: AuthInfo,
    levelOf?: () => Level | undefined,
  ) {
    this.#registry = registry;
    this.#send = send;
    this.#auth = auth;
    this.#levelOf = levelOf;
  }

  /**
   * Starts telling the client of changes (its session opened); once.
   *
   * @param session The session `initialize` opened on the connection.
   */
  start(session: string): void {
    this.#caller = callerKey(this.#auth, session);
    this.#stop ??= this.#registry.listen((change: RegistryChange) => {
      if ((change.kind === "resource-updated" || change.kind === "log") && !heardBy(change, this.#caller)) return;
      if (change.kind === "resource-updated") {
        if (this.#subscribed.has(change.uri)) {
          this.#send(notificationMessage("notifications/resources/updated", { uri: change.uri }));
        }
      } else if (change.kind === "log") {
        const { level, logger, data } = change; // an absent logger is left out of the JSON
        const chosen = this.#levelOf === undefined ? this.#logLevel : this.#levelOf();
        if (chosen === undefined || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(chosen)) return;
        this.#send(notificationMessage("notifications/message", { level, logger, data }));
      } else {
        const message = LIST_CHANGED[change.kind];
        if (message !== undefined) this.#send(message);
      }
    });
  }

  /**
   * Follows a request that was answered: `resources/subscribe` and `resources/unsubscribe` change
   * which updates the client hears, `logging/setLevel` which logs.
   *
   * @param request The request.
   */
  follow(request: McpRequest): void {
    const { method, params } = request.rpc;
    if (method === "logging/setLevel") this.#logLevel = params.level as Level;
    if (method !== "resources/subscribe" && method !== "resources/unsubscribe") return;
    const uri = params.uri as string;
    if (method === "resources/unsubscribe") {
      this.#subscribed.get(uri)?.();
      this.#subscribed.delete(uri);
    } else if (!this.#subscribed.has(uri)) {
      const resolved = featureResource(this.#registry, uri); // answered, so known
      this.#subscribed.set(uri, (resolved?.resource as WatchedResource | undefined)?.watch?.(uri, this.#caller));
    }
  }

  /** How many resources the client subscribed to. */
  get subscriptions(): number {
    return this.#subscribed.size;
  }

  /** Stops telling the client (the connection is closing), and stops watching what it subscribed to. */
  stop(): void {
    this.#stop?.();
    this.#stop = undefined;
    for (const unwatch of this.#subscribed.values()) unwatch?.();
    this.#subscribed.clear();
  }
}
