/**
 * How the package's bindings see a server's definitions: the {@link Registry} interface (tools, resources, skills and
 * prompts by name, the features they brought, a change bus, typed caches), what changes announce, and the
 * long-running support the core calls through. The server holds the implementation, `Definitions`
 * (`registry.ts`); outside the package a server's registry is a {@link CallTarget}, read-only.
 *
 * @module
 */
import type { CacheSlot } from "./cache-slot.ts";
import type { LogLevel } from "../call/call-sink.ts";
import type { JobEngine } from "../long-running/job-engine.ts";
import type { FollowOptions } from "../call/follow-options.ts";
import type { ToolCall } from "../call/middleware.ts";
import type { CallOutcome, PromiseOutcome } from "../call/outcome.ts";
import type { PendingPromise } from "../call/tool-promise.ts";
import type { Feature } from "./feature.ts";
import type { AnyPrompt } from "./prompt.ts";
import type { AnyResource } from "./resource.ts";
import type { Runtime } from "../instance/runtime.ts";
import type { Skill } from "./skill.ts";
import type { AnyTool } from "./tool.ts";

/**
 * What changed: one of the lists, the configuration, or the contents of one resource; or a log message the
 * server sends outside any request (a proxied remote's), for the sessions that asked for logs. An update or a
 * log with a `caller` is that caller's alone (a proxied remote's session of its own, see `callerKey()`): only a
 * stream or connection of that caller hears it (`""`: only one that cannot be told apart).
 */
export type RegistryChange =
  | { readonly kind: "tools" | "prompts" | "resources" | "config" }
  | { readonly kind: "resource-updated"; readonly uri: string; readonly caller?: string }
  | {
    readonly kind: "log";
    readonly level: LogLevel;
    readonly logger?: string;
    readonly data: unknown;
    readonly caller?: string;
  };

/**
 * A server's tools as a binding sees them: `core.registry`, which it hands to `runCall()` as it is, and a read-only
 * view an out-of-tree wire lists tools from. What else it holds (middleware, the promise store, the providers it
 * mounts) is the server's business and changes without notice.
 */
export interface CallTarget {
  /**
   * Every tool the server serves, in order: its own, then each mounted provider's (`server.group()`, a proxy's
   * remote), under the names they are called by. Read it on each list: tools come and go at run time. A tool with
   * `scopes` is for callers that hold them; tools tool search finds are here too (callable by name, listed by it).
   */
  readonly tools: Iterable<AnyTool>;
  /**
   * Subscribes to changes of what the server serves (for a wire's own `list_changed`).
   *
   * @param listener Called after each change, with what changed (`kind`: `"tools"`, `"prompts"`, `"resources"`…).
   * @returns A function that unsubscribes.
   */
  onChange(listener: (change: { readonly kind: string }) => void): () => void;
}

/**
 * What `core.registry` (a {@link CallTarget}) is inside the package: the server's definitions, as its own
 * bindings read them. The server builds every core, so its target is always a registry.
 *
 * @param core The core a binding received.
 * @returns The server's definitions.
 */
export function registryOf(core: { readonly registry: CallTarget }): Registry {
  return core.registry as Registry;
}

/** A server's definitions as the package's own bindings read them (opaque outside: {@link CallTarget}). */
export interface Registry extends CallTarget {
  /** The server's runtime: middleware, error reporter, tokens, settings, configuration schema. */
  readonly runtime: Runtime;
  /** The server's long-running support, if it has one (only then may a tool answer "not done yet"). */
  readonly longRunning: LongRunning | undefined;
  /**
   * Looks a tool up. This is the only registry work on the hot path.
   *
   * @param name The tool name.
   * @param tool The tool itself, when the caller holds it (`invoke()`): the test kit's registry adds it when asked.
   * @returns The tool, or `undefined`.
   */
  get(name: string, tool?: AnyTool): AnyTool | undefined;
  /** The registered tools, in registration order. */
  readonly tools: IterableIterator<AnyTool>;
  /**
   * Which registered tools the lists show (`tools/list`, gRPC `GetTools`, …); `undefined`: all of them.
   * A tool left out stays callable by name (tool search lists a few and finds the rest).
   */
  readonly listing: ToolListing | undefined;
  /** The registered resources and templates, in registration order. */
  readonly resources: IterableIterator<AnyResource>;
  /** The registered skills (SEP-2640), in registration order. */
  readonly skills: IterableIterator<Skill>;
  /**
   * Finds a skill by its URI (`skill://<name>/SKILL.md`).
   *
   * @param uri The URI.
   * @returns The skill, if one is registered.
   */
  skill(uri: string): Skill | undefined;
  /** The registered prompts, in registration order. */
  readonly prompts: IterableIterator<AnyPrompt>;
  /**
   * Looks a prompt up.
   *
   * @param name The prompt name.
   * @returns The prompt, or `undefined`.
   */
  prompt(name: string): AnyPrompt | undefined;
  /**
   * The features the registered tools, resources, prompts and skills brought (e.g. the MCP methods that
   * serve resources), in the order they came; a binding reads its own part of each.
   */
  readonly features: ReadonlySet<Feature>;
  /**
   * A value derived from the definitions, built on first use after each change (of the definitions or
   * of the server's configuration schema) and kept until the next.
   *
   * @param slot The kind of value (declared once, module-level).
   * @param key Which value of that kind (e.g. the caller's scopes); `""` when there is one.
   * @param build Derives the value.
   * @returns The cached value.
   */
  cached<V>(slot: CacheSlot<V>, key: string, build: () => V): V;
  /**
   * Subscribes to changes (for `list_changed` and `resources/updated` notifications).
   *
   * @param listener Called after each change, with what changed.
   * @returns A function that unsubscribes.
   */
  onChange(listener: (change: RegistryChange) => void): () => void;
  /**
   * Subscribes a client's stream (`subscriptions/listen`, a connection's pushes) to the changes it may hear:
   * this registry's, or what a notifier that subscribes each stream itself feeds it ({@link ChangeFeed}).
   *
   * @param listener Called with each change.
   * @param ready Called once the stream hears every change, before the first.
   * @returns A function that unsubscribes.
   */
  listen: ChangeFeed;
  /**
   * A registry of its own tools that shares this one's runtime and features (Webtools serves the older
   * versions of a tool set this way). A long-running tool among them brings its own `redeem` tool.
   *
   * @param tools The fork's tools.
   * @returns The fork.
   */
  fork(tools: Iterable<AnyTool>): Registry;
}

/**
 * Where a client's stream hears changes from: by default the registry's own (`onChange`); a notifier whose
 * subscriptions serve only the request that made them (Cloudflare Workers) subscribes each stream instead.
 */
export type ChangeFeed = (listener: (change: RegistryChange) => void, ready?: () => void) => () => void;

/**
 * Whether a registered tool is shown in the lists (see {@link Registry.listing}); `under` makes the listing of a server
 * that mounts this one's tools under `lead` (`server.group()`) over its own (`outer`): a transform that stacks.
 */
export type ToolListing = ((tool: AnyTool) => boolean) & {
  readonly under?: (lead: string, own: Registry, outer: ToolListing | undefined) => ToolListing;
};

/** Builds the system tool that redeems the promises of a registry's long-running tools. */
export type RedeemToolFactory = (registry: Registry) => AnyTool;

/**
 * Long-running support: what a server needs to answer "not done yet" (MCP-lite spec v0.042 §3.5,
 * promises; §3.6, the `redeem` system tool; §5.3, pushed updates). The core and the wires call it only
 * through this interface, so that a server without it (`createServer` of `@mcplite/sdk/lite`, unless
 * given `longRunning`) bundles none of the deferred-work machinery: the job runner, its result store and
 * leases, the `redeem` tool, the following of tasks. `createServer` of `@mcplite/sdk` always has it.
 */
export interface LongRunning {
  /** The deferred-work machinery, with the server's tokens (the jobs layer's engine). */
  readonly continuations: JobEngine;
  /** Builds the `redeem` system tool, listed with the first long-running tool. */
  readonly redeemTool: RedeemToolFactory;
  /**
   * Checks a long-running tool as it is added.
   *
   * @throws {TypeError} When it can only defer inline work and asks for `retry`, which only declared work has.
   */
  admit(tool: AnyTool): void;
  /**
   * Turns a handler's pending answer into a `promise` outcome (starts deferred work, signs the token).
   *
   * @throws {TypeError} When the tool cannot redeem it; a `RangeError` for a state too large for a token.
   */
  promised(
    registry: Registry,
    call: ToolCall,
    tool: AnyTool,
    promise: PendingPromise,
    waitUntil?: (work: Promise<unknown>) => void,
  ): Promise<PromiseOutcome>;
  /**
   * Follows a streaming call's deferred work for a while (MCP-lite spec v0.042 §5.3): its result as the
   * call's outcome, or the outcome as it was.
   *
   * @throws {ProtocolError} One the work failed with.
   */
  follow(registry: Registry, outcome: CallOutcome, options: FollowOptions): Promise<CallOutcome>;
  /**
   * The server serves (its first request, or a listener): where its instances keep their queue in their shared
   * store, this one starts taking its jobs (once).
   */
  serve(registry: Registry): void;
}
