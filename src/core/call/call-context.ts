/**
 * The context every handler receives as its second argument: the cancellation signal, progress and
 * logging, the caller's metadata and what middleware learned about the caller. Always explicit, never
 * ambient (no AsyncLocalStorage).
 *
 * @module
 */
import type {
  CreateMessageResult,
  ElicitResult,
  InputRequest,
  ListRootsResult,
  LogLevel,
  ResourceRequest,
} from "./call-sink.ts";
import type { CallMeta } from "./call-meta.ts";
import type { ClientView } from "./client-view.ts";
import type { ContextKey } from "./context-key.ts";
import type { ResourceContents } from "../results/result.ts";
import type { AuthInfo } from "./host.ts";
import type { InferSchemaOutput, StandardSchemaV1 } from "../schema.ts";
import type { PromiseOptions, ToolPromise } from "./tool-promise.ts";
import type { FormElicitation, UrlElicitation, UrlElicitResult } from "./elicitation.ts";
import type { SampleParams } from "./sampling.ts";

export type { AuthInfo } from "./host.ts";
export {
  callerOf,
  type CallMeta,
  type ClientInfo,
  type ContextSource,
  type SignalSource,
  type Wire,
} from "./call-meta.ts";
export { type ClientView, RESOURCE_REQUESTS } from "./client-view.ts";
export { type ContextKey, createContextKey } from "./context-key.ts";
export { withResultMeta } from "./result-meta.ts";

/**
 * The context of one call, the handler's second argument: who calls, the call's signal, and the handler's ways
 * to report progress, ask the client, and answer later. The server makes one per call.
 *
 * @typeParam TConfig The tool's configuration, as its `.config()` schema outputs it.
 */
export interface CallContext<TConfig = unknown> {
  /** The name of the tool being called. */
  readonly tool: string;
  /** What is known about the caller. */
  readonly meta: CallMeta;
  /** The authenticated caller: set by the server's authentication, or by middleware. */
  auth: AuthInfo | undefined;
  /**
   * What the platform handed `server.fetch` as its second argument: a Worker's `env` (its bindings and
   * variables), or what a framework route passed on (e.g. Hono's `c.env` with values its middleware set).
   * `undefined` on Deno.serve, Bun.serve and in process.
   */
  readonly env: Readonly<Record<string, unknown>> | undefined;
  /**
   * The validated configuration (`.config()` on the tool and the server): environment-supplied settings
   * the model never generates. On MCP and MCP-lite it comes from the server's `settings`; on Webtools
   * from the caller's `config` (the server's `settings` still win). `undefined` when nothing declares one.
   */
  readonly config: TConfig;
  /**
   * Aborted when the caller goes away or cancels.
   *
   * Where the runtime does not report a disconnect, it is noticed late or not at all: on Deno over
   * HTTP/1.1, a client that leaves while a plain JSON answer is pending (README, "Deno and client aborts";
   * `tests/server/cancellation.test.ts` shows each case).
   */
  readonly signal: AbortSignal;
  /**
   * Reports progress. Values never go backwards: a lower value than the last one is ignored.
   *
   * @param progress The progress so far.
   * @param total The total, if known.
   * @param message A human-readable message.
   */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Logs a message to the client, if the wire and the client's log level allow it, and to the server's
   * `logger` (whatever the level), with the tool's name and, where telemetry middleware traces the
   * request, its `trace_id` and `span_id`.
   *
   * @param level The severity.
   * @param data The message or structured data.
   * @param logger The logger name.
   */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /**
   * Asks the client for input through the wire's channel; `key` names the question, unique within the
   * call, so an answer can be matched to it across rounds.
   *
   * @param key The question's key.
   * @param request The client method and its params.
   * @returns The client's answer.
   * @throws {ProtocolError} `missing_capability` when the wire cannot ask the client.
   */
  requestInput(key: string, request: InputRequest): Promise<unknown>;
  /**
   * Asks the user to fill in a form (MCP elicitation, form mode). Never ask for passwords, API keys or
   * payment details in a form: they would pass through the client; send the user to a page (URL mode).
   *
   * @param key The question's key, unique within the call.
   * @param form The message and the JSON Schema of the form (flat object of primitives, per MCP).
   * @returns The user's answer.
   * @throws {ProtocolError} `missing_capability` when the wire or the client cannot be asked.
   */
  elicit(key: string, form: FormElicitation): Promise<ElicitResult>;
  /**
   * Sends the user to a page (MCP 2025-11-25, elicitation in URL mode): a sign-in at a third party, a
   * payment, anything whose secrets must not pass through the client. Resolves when the user accepts to
   * open the page (or declines): finishing there happens out of band, where the server must check that
   * the user who completes the flow is the one who started it (bind it to `ctx.auth`, not to the URL's
   * possession). Once done, tell the client with {@link CallContext.completeElicitation}. The URL is
   * `https:` (`http:` only on localhost) and carries no credentials or personal data.
   *
   * @param key The question's key, unique within the call.
   * @param page `{ mode: "url", url, message, elicitationId? }`.
   * @returns What the user did, and the elicitation's id.
   * @throws {TypeError} For a URL that is not `https:` (or `http:` on localhost), or carries credentials.
   * @throws {ProtocolError} `missing_capability` when the client did not declare `elicitation.url`.
   *
   * @example
   * ```ts ignore
   * const flow = await startSignIn(ctx.auth); // your own record: who started it, and its id
   * const answer = await ctx.elicit("signin", {
   *   mode: "url",
   *   url: `https://auth.example.com/authorize?state=${flow.id}`,
   *   message: "Sign in to Example to let me read your calendar",
   *   elicitationId: flow.id,
   * });
   * if (answer.action !== "accept") return "Not signed in";
   * await flow.done; // your callback route checks the user who finished is ctx.auth's
   * ctx.completeElicitation(answer.elicitationId);
   * ```
   */
  elicit(key: string, page: UrlElicitation): Promise<UrlElicitResult>;
  /**
   * Tells the client that the user completed a URL-mode elicitation (MCP 2025-11-25,
   * `notifications/elicitation/complete`), on the call's stream, so that it can retry or close its
   * prompt. Where the wire has no such notification (MCP 2026-07-28, MCP-lite, gRPC) this does nothing.
   *
   * @param elicitationId The id that `ctx.elicit()` in URL mode returned.
   */
  completeElicitation(elicitationId: string): void;
  /**
   * Asks the client's model for a completion (MCP sampling). With `tools`, the model may answer with
   * `tool_use` blocks (`stopReason: "toolUse"`): run them, then sample again with the conversation, the
   * model's message and a user message of `tool_result` blocks (SEP-1577). Tools are offered only to a
   * client that declared `sampling: { tools: {} }`.
   *
   * @param key The question's key, unique within the call.
   * @param params MCP `sampling/createMessage` params (`messages`, `maxTokens`, `tools`, `toolChoice`, …).
   * @returns The sampled message.
   * @throws {ProtocolError} `missing_capability` when the client did not declare `sampling` (or
   *   `sampling.tools`, for a request with tools).
   *
   * @example
   * ```ts ignore
   * const tools = [{ name: "weather", inputSchema: { type: "object" as const, properties: { city: { type: "string" } } } }];
   * const messages: SamplingMessage[] = [{ role: "user", content: { type: "text", text: "Weather in Oslo?" } }];
   * const first = await ctx.sample("ask", { messages, maxTokens: 200, tools, toolChoice: { mode: "auto" } });
   * const uses = [first.content].flat().filter((block) => block.type === "tool_use");
   * const results = uses.map((use) => ({
   *   type: "tool_result" as const, toolUseId: use.id, content: [{ type: "text" as const, text: "12°C" }],
   * }));
   * const final = await ctx.sample("answer", {
   *   messages: [...messages, { role: "assistant", content: first.content }, { role: "user", content: results }],
   *   maxTokens: 200, tools,
   * });
   * ```
   */
  sample(key: string, params: SampleParams): Promise<CreateMessageResult>;
  /**
   * Asks the client for its roots (MCP roots).
   *
   * @param key The question's key, unique within the call.
   * @returns The roots.
   */
  roots(key: string): Promise<ListRootsResult>;
  /**
   * Asks the client for a resource the handler needs to go on (MCP-lite's `request-for-more-resource`,
   * MCP-lite spec v0.042 §3.3, as the README's MCP-lite section defines it): on MCP-lite and gRPC the call
   * ends with that response type, `input_requests` and a signed `request_state`, and the handler runs
   * again with the contents once the client calls back with them (as an elicitation round). On MCP, only
   * a client that declared the experimental `io.mcplite/resourceRequests` capability is asked; others
   * refuse the call with `missing_capability` (-32021).
   *
   * @param key The request's key, unique within the call.
   * @param request What is needed (`description`), and where it might be (`uri`, `mimeTypes`).
   * @returns The resource's contents: `{ uri, mimeType?, text }` or `{ uri, mimeType?, blob }` (base64).
   * @throws {ProtocolError} `missing_capability` when the wire or the client cannot answer.
   *
   * @example
   * ```ts ignore
   * const file = await ctx.requestResource("spec", { description: "The spec to check against", mimeTypes: ["text/markdown"] });
   * if ("text" in file) return lint(file.text);
   * ```
   */
  requestResource(key: string, request: ResourceRequest): Promise<ResourceContents>;
  /**
   * Runs an effect once per call, across its input rounds (a job's journaled steps are `work.step()`'s). Where the
   * wire answers questions by calling again (MCP-lite, MCP 2026), the handler runs again from the top on each round;
   * a `run` that completed in an earlier round returns its recorded value instead of running again. The value must be
   * JSON; it travels in the sealed `requestState` (signed only with `tokens: { seal: false }`).
   *
   * @param key Its key, unique within the call.
   * @param run The effect.
   * @returns Its value.
   *
   * @example
   * ```ts ignore
   * const order = await ctx.step("reserve", () => reserveStock(args.sku)); // runs once
   * const ok = await ctx.elicit("confirm", { message: `Buy ${args.sku}?`, requestedSchema });
   * ```
   */
  step<T>(key: string, run: () => T | Promise<T>): Promise<T>;
  /**
   * Answers "not done yet": the client gets a promise token and redeems it later through the `redeem`
   * tool, which runs this tool's `.redeem()` handler with `state` on whichever instance receives it.
   * The state is sealed into the token (signed only with `tokens: { seal: false }`); nothing is kept here.
   *
   * @param options The state and timing.
   * @returns The pending answer, for the handler to return.
   *
   * @example
   * ```ts ignore
   * .handle(async (args, ctx) => ctx.promise({ state: { job: await startJob(args) }, retryAfterMs: 2000 }))
   * .redeem(async ({ job }, ctx) => (await jobResult(job)) ?? ctx.promise({ state: { job }, retryAfterMs: 2000 }))
   * ```
   */
  promise<S>(options: PromiseOptions<S>): ToolPromise<S>;
  /**
   * Answers "not done yet" while `work` runs on in this process; its result waits in the server's
   * `ResultStore` and the client redeems the token to get it. The tool must be `.longRunning()`
   * (declared before `.handle()`, or this does not compile). The signal aborts when the promise is
   * cancelled (`redeem` with `cancel: true`, MCP `tasks/cancel`), not when this request ends. Inside the work, `ctx.elicit()` and friends park the job until the
   * client answers: an MCP task turns `input_required` (answered with `tasks/update`), and redeeming
   * the promise asks the questions on the `redeem` call. Progress and logs of the work reach a streaming call
   * that follows the job (MCP-lite SSE, gRPC `CallToolStream`, stdio with `_meta.stream`: MCP-lite spec
   * v0.042 §5.3, server-pushed updates); otherwise they go nowhere.
   *
   * @param work The work.
   * @param options The timing.
   * @returns The pending answer, for the handler to return.
   */
  defer(work: (signal: AbortSignal) => unknown, options?: Omit<PromiseOptions<unknown>, "state">): ToolPromise<never>;
  /**
   * Answers "not done yet" and starts the tool's declared work (`.defer()`) with `input`: in this process, or on
   * a worker with a queue (`createServer({ queue })`). The handler that calls it runs once per call.
   *
   * @param input The work's input, JSON (default: the call's arguments).
   * @param options The timing.
   * @returns The pending answer, for the handler to return.
   *
   * @example
   * ```ts ignore
   * .defer((input: { id: string; ok: boolean }, work) => work.step("send", () => send(input)))
   * .handle(async ({ id }, ctx) => ctx.defer({ id, ok: await confirm(ctx, id) }))
   * ```
   */
  defer(input?: unknown, options?: Omit<PromiseOptions<unknown>, "state">): ToolPromise<never>;
  /** What the client said of itself and declared; `ctx.client.supports("elicitation")`. */
  readonly client: ClientView;
  /**
   * Validates a value the handler holds (a fetched record, a sampled answer) against a schema, as the
   * arguments were: the value as the schema outputs it, or a `ToolError` (the call's failure, which the
   * model sees) naming each failing path.
   *
   * @param schema A synchronous Standard Schema (valibot's schemas are ones).
   * @param value The value.
   * @returns The value, as the schema outputs it.
   * @throws {ToolError} When the value does not match: `Invalid value: path: message; …`, the issues in its data.
   * @throws {TypeError} For an async schema (validate it with valibot's `parseAsync` instead).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import * as v from "valibot";
   * import { createContext } from "./tool-call-context.ts";
   * const ctx = createContext({ name: "t", signal: AbortSignal.abort(), meta: { wire: "in-process", headers: new Headers() } });
   * assert.deepEqual(ctx.validate(v.object({ id: v.number() }), { id: 7 }), { id: 7 });
   * assert.throws(() => ctx.validate(v.object({ id: v.number() }), { id: "7" }), /Invalid value: id: /);
   * ```
   */
  validate<S extends StandardSchemaV1>(schema: S, value: unknown): InferSchemaOutput<S>;
  /**
   * Adds keys to this call's result `_meta` (per-call metadata such as a cache status), on the wires
   * whose results carry one (MCP, MCP-lite); a tool's answer or failure, a resource read's or a
   * prompt's result. The wire's own keys (MCP-lite's `response_type`…, MCP's `serverInfo`) win over
   * these; keys in MCP's reserved namespaces are refused.
   *
   * @param meta The keys to add.
   * @returns This context.
   * @throws {TypeError} For a key MCP reserves (a prefix with a `modelcontextprotocol` or `mcp` label).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { createServer, defineTool } from "../../../mod.ts";
   * const cached = defineTool("cached").handle((_, ctx) => {
   *   ctx.resultMeta({ "example.com/cache": "hit" });
   *   return "from cache";
   * });
   * const outcome = await createServer({ name: "demo", version: "1.0.0" }).tool(cached).call("cached", {});
   * assert.equal(outcome.kind === "answer" && outcome.result._meta?.["example.com/cache"], "hit");
   * ```
   */
  resultMeta(meta: Readonly<Record<string, unknown>>): this;
  /**
   * Reads a value set by middleware.
   *
   * @param key The key.
   * @returns The value, or the key's default.
   */
  get<T>(key: ContextKey<T>): T;
  /**
   * Sets a value for the handler (from middleware).
   *
   * @param key The key.
   * @param value The value.
   * @returns This context.
   */
  set<T>(key: ContextKey<T>, value: T): this;
}
