/**
 * What a 2025 client on a connection (stdio, a WebSocket) hears outside its requests, once
 * `initialize` opened its session: list changes (MCP 2025-11-25, Tools, Prompts, Resources: List
 * Changed Notification) and updates of the resources it subscribed to (Resources: Subscriptions).
 * Over HTTP this stateless server has no 2025 GET stream to carry them, so they are not advertised there.
 *
 * @module
 */
import type { Registry, RegistryChange } from "../../core/mod.ts";
import { notificationMessage } from "../jsonrpc.ts";
import type { McpRequest } from "./mcp-request.ts";

/** The list-changed notification of each kind of list. */
const LIST_CHANGED: Readonly<Record<string, string>> = {
  tools: notificationMessage("notifications/tools/list_changed"),
  prompts: notificationMessage("notifications/prompts/list_changed"),
  resources: notificationMessage("notifications/resources/list_changed"),
};

/** The pushes of one connection. */
export class ConnectionPushes {
  readonly #registry: Registry;
  readonly #send: (message: string) => void;
  /** Resources the client subscribed to (`resources/subscribe`). */
  readonly #subscribed = new Set<string>();
  #stop: (() => void) | undefined;

  /**
   * Creates the pushes of a connection; none go out before {@link start}.
   *
   * @param registry The server's registry.
   * @param send Sends a message on the connection.
   */
  constructor(registry: Registry, send: (message: string) => void) {
    this.#registry = registry;
    this.#send = send;
  }

  /** Starts telling the client of changes (its session opened); once. */
  start(): void {
    this.#stop ??= this.#registry.listen((change: RegistryChange) => {
      if (change.kind !== "resource-updated") {
        const message = LIST_CHANGED[change.kind];
        if (message !== undefined) this.#send(message);
      } else if (this.#subscribed.has(change.uri)) {
        this.#send(notificationMessage("notifications/resources/updated", { uri: change.uri }));
      }
    });
  }

  /**
   * Follows a request that was answered: `resources/subscribe` and `resources/unsubscribe` change
   * which updates the client hears.
   *
   * @param request The request.
   */
  follow(request: McpRequest): void {
    const { method, params } = request.rpc;
    if (method === "resources/subscribe") this.#subscribed.add(params.uri as string);
    else if (method === "resources/unsubscribe") this.#subscribed.delete(params.uri as string);
  }

  /** Stops telling the client (the connection is closing). */
  stop(): void {
    this.#stop?.();
    this.#stop = undefined;
  }
}
