/**
 * How a listener attaches to a server: a carrier that does not go through `server.fetch` (the HTTP/2
 * gRPC listener of `serveGrpc()`, `serveStdio()`, a WebSocket) gets the server's core (the registry
 * and the resolved options, as bindings get them) and its gate (Host/Origin guard, authentication and
 * challenges, CORS, the Protected Resource Metadata), and maps the gate's decisions to its own wire.
 *
 * @module
 */
import type { ServerCore } from "./binding-contract.ts";
import type { Gate } from "./gate.ts";

/** What a listener needs of a server. */
export interface ListenerAttachment {
  /** The registry and the resolved options, as the server's bindings receive them. */
  readonly core: ServerCore;
  /** The server's gate, the same `server.fetch` calls. */
  readonly gate: Gate;
}

/**
 * Where a server carries its attachment: a symbol-keyed property, a value on the server rather than a table
 * beside it (read as an own property: an object made from a server is none).
 */
const ATTACHMENT = /* @__PURE__ */ Symbol();

/**
 * Records what a server gives its listeners; the server's constructor calls it, once.
 *
 * @param server The server.
 * @param attachment Its core and gate.
 */
export function registerListenerAttachment(server: object, attachment: ListenerAttachment): void {
  (server as { [ATTACHMENT]?: ListenerAttachment })[ATTACHMENT] = Object.freeze(attachment);
}

/**
 * Attaches a listener to a server: returns the server's core and its gate. A listener is a carrier
 * that does not go through `server.fetch` (a socket, a pipe, an HTTP/2 server): it authenticates with
 * `gate.authenticate()` and hands the caller to the pipeline as `host.auth`, answers a refusal with
 * `gate.challenge()` (and `gate.dpopNonce()`, RFC 9449 §8.1) on its wire, and runs calls with the core's registry. Each call returns the same
 * attachment, made once when the server was.
 *
 * @param server A server from `createServer()`.
 * @returns Its core and gate.
 * @throws {TypeError} When `server` was not made by `createServer()`.
 *
 * @example A listener's view of a server
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, defineTool } from "../../mod.ts";
 * import { attachListener, runCall } from "../binding.ts";
 *
 * const server = createServer({ name: "demo", version: "1.0.0" }).tool(defineTool("ping").handle(() => "pong"));
 * const { core, gate } = attachListener(server);
 * assert.equal(gate.auth, undefined); // no `auth`: calls run with no caller
 * const outcome = await runCall(core.registry, {
 *   name: "ping",
 *   arguments: {},
 *   meta: { wire: "in-process", headers: new Headers() },
 *   signal: new AbortController(),
 * });
 * assert.equal(outcome.kind === "answer" && outcome.result.content[0].type === "text" && outcome.result.content[0].text, "pong");
 * ```
 */
export function attachListener(server: object): ListenerAttachment {
  const attachment = attachmentOf(server);
  if (attachment === undefined) throw new TypeError("attachListener() needs a server made by createServer()");
  return attachment;
}

/**
 * What a server gives its listeners, when `server` is one made by `createServer()`.
 *
 * @param server Any object.
 * @returns Its core and gate, or `undefined` for anything else (any other `{ fetch }`).
 */
export function attachmentOf(server: object): ListenerAttachment | undefined {
  // Its own property only: an object made from a server (`Object.create(server)`) is not one.
  return Object.hasOwn(Object(server), ATTACHMENT)
    ? (server as { [ATTACHMENT]?: ListenerAttachment })[ATTACHMENT]
    : undefined;
}
