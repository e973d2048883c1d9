/**
 * `@mcplite/sdk/binding`: what a binding author needs to put the same tools on another wire. A binding receives the
 * server's core (registry and options) once and returns its routes; each route decodes its wire into a call, hands
 * it to {@link runCall}, the one call pipeline, and encodes the outcome. A listener outside `server.fetch` (a
 * socket, a pipe) gets the same core, and the server's gate, from {@link attachListener}.
 *
 * This is the whole contract, and semver covers every name it exports. `core.registry` is handed to `runCall` as it
 * is, and read only for its tools and changes; the server's runtime, pipeline stages and promise store change freely.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { type Binding, createServer, defineTool } from "../mod.ts";
 * import { runCall } from "./binding.ts";
 *
 * // GET /call/{tool}?{arguments as query parameters} → the result's text.
 * const queryBinding: Binding = ({ registry }) => ({
 *   routes: new Map([["/call/*", {
 *     async handle(request) {
 *       const url = new URL(request.url);
 *       const outcome = await runCall(registry, {
 *         name: url.pathname.slice("/call/".length),
 *         arguments: Object.fromEntries(url.searchParams),
 *         meta: { wire: "in-process", headers: request.headers },
 *         signal: request,
 *       });
 *       if (outcome.kind !== "answer") return new Response("not done", { status: 202 });
 *       return new Response(outcome.result.content.map((c) => c.type === "text" ? c.text : "").join(""));
 *     },
 *     refuse: (error) => new Response(error.message, { status: 403 }),
 *   }]]),
 * });
 *
 * const greet = defineTool("greet").input(v.object({ name: v.string() })).handle(({ name }) => `Hello, ${name}`);
 * const server = createServer({ name: "demo", version: "1.0.0", bindings: [queryBinding] }).tool(greet);
 * const response = await server.fetch(new Request("http://localhost/call/greet?name=Ada"));
 * assert.equal(await response.text(), "Hello, Ada");
 * ```
 *
 * @module
 */
export { runCall } from "./core/call/pipeline.ts";
export type { CallRequest } from "./core/call/call-request.ts";
export type { CallTarget } from "./core/definitions/registry.ts";
// What a call request carries from the wire (its signal, its sink) and what the resolved options hold.
export type { CallSink } from "./core/call/call-sink.ts";
export type { SignalSource } from "./core/call/call-context.ts";
export type { ServedVersions } from "./server/protocol-versions.ts";
export type { AnswerOutcome, FailureOutcome, InputRequiredOutcome, PromiseOutcome } from "./core/call/outcome.ts";
export type { Host, MountedBinding, ResolvedOptions, Route, ServerCore } from "./server/binding-contract.ts";
export { attachListener, type ListenerAttachment } from "./server/listener.ts";
export type { Gate } from "./server/gate.ts";
export { acceptsEventStream, readJson } from "./server/read-json.ts";
