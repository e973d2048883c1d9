/**
 * `@mcplite/sdk/binding`: what a binding author needs to put the same tools on another wire. A
 * binding is a function that receives the server's core (its registry and options) once and returns
 * the routes it serves; each route decodes its wire into a call, hands it to {@link runCall}, the one
 * call pipeline, and encodes the outcome. A listener that does not go through `server.fetch` (a
 * socket, a pipe) gets the same core, and the server's gate, from {@link attachListener}.
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
export { runCall } from "./core/pipeline.ts";
export { unknownTool } from "./core/execute-tool.ts";
export { runHandler } from "./core/run-handler.ts";
export { runRequest } from "./core/run-request.ts";
export type { CallRequest } from "./core/call-request.ts";
export type { HandlerOutcome, HandlerRequest } from "./core/run-handler.ts";
export type { MethodRequest } from "./core/run-request.ts";
export type { LongRunning, LongRunningSupport, RedeemToolFactory, Registry, RegistryChange } from "./core/registry.ts";
export type { FollowOptions } from "./core/follow-options.ts";
export type { Tokens, TokensOptions } from "./core/tokens.ts";
export type { Runtime, RuntimeOptions } from "./core/runtime.ts";
export { CacheSlot } from "./core/cache-slot.ts";
export type { Feature, Featured } from "./core/feature.ts";
export type { Continuations, ContinuationsOptions, Restart, StartOptions } from "./core/continuations.ts";
export type { DeferredWork, JobBinder } from "./core/tool-promise.ts";
export {
  type Host,
  type MountedBinding,
  NO_HOST,
  type ResolvedOptions,
  type Route,
  type RouteHandler,
  type Routes,
  type ServerCore,
  withCaller,
} from "./server/binding.ts";
export type { ServedVersions } from "./server/protocol-versions.ts";
export type { Grouped } from "./core/group.ts";
export { attachListener, type ListenerAttachment } from "./server/listener.ts";
export type { Gate, GateAnswer } from "./server/gate.ts";
export type { Cors } from "./server/cors.ts";
export type { RequestGuard } from "./server/guard.ts";
export { acceptsEventStream, readJson } from "./server/read-json.ts";
export type {
  AnswerOutcome,
  FailureOutcome,
  FinalOutcome,
  InputRequiredOutcome,
  PromiseOutcome,
} from "./core/outcome.ts";
