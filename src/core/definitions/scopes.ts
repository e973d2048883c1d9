/**
 * OAuth scopes on tools, resources and prompts (MCP 2025-11-25, Authorization, Scope Challenge
 * Handling): what a definition requires, whether a caller holds it, and the refusal that lets the
 * client ask for more (step-up).
 *
 * @module
 */
import type { AuthInfo } from "../call/call-context.ts";
import { ProtocolError } from "../../errors/error.ts";
import type { Registry } from "./registry.ts";
import type { AnyTool } from "./tool.ts";
import { CacheSlot } from "./cache-slot.ts";

/** The scopes any definition of a kind requires. */
const SCOPES = new CacheSlot<ReadonlySet<string>>("scopes");

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * Checks scopes at definition time.
 *
 * @param scopes The scopes.
 * @param owner The definition, for the message.
 * @returns The scopes, deduplicated and frozen.
 * @throws {TypeError} For a malformed scope.
 */
export function checkScopes(scopes: readonly string[], owner: string): readonly string[] {
  for (const scope of scopes) {
    if (typeof scope !== "string" || !SCOPE_TOKEN.test(scope)) {
      throw new TypeError(
        `${owner}: invalid scope ${JSON.stringify(scope)} (RFC 6749 §3.3: no spaces, quotes or backslashes)`,
      );
    }
  }
  return Object.freeze([...new Set(scopes)]);
}

/**
 * Tells whether a caller holds every scope a definition requires.
 *
 * @param required The definition's scopes.
 * @param auth The caller.
 * @returns Whether it may see and use the definition.
 */
export function holdsScopes(required: readonly string[] | undefined, auth: AuthInfo | undefined): boolean {
  if (required === undefined || required.length === 0) return true;
  const held = auth?.scopes;
  return held !== undefined && required.every((scope) => held.includes(scope));
}

/**
 * Refuses a caller that lacks a required scope: `unauthenticated` without a caller, else
 * `permission_denied` (403 `insufficient_scope` on HTTP) whose data names the scopes needed: the
 * error itself is what the edge derives the step-up challenge from (`WWW-Authenticate: Bearer
 * error="insufficient_scope", scope="…"`, RFC 6750 §3.1), on whatever wire the call came. The caller
 * is left as it is.
 *
 * @param required The definition's scopes.
 * @param auth The caller.
 * @param what The definition, for the message (`tool "delete_doc"`).
 * @throws {ProtocolError} When a scope is missing.
 */
export function requireScopes(required: readonly string[] | undefined, auth: AuthInfo | undefined, what: string): void {
  if (holdsScopes(required, auth)) return;
  const needed = required!;
  if (auth === undefined) {
    throw new ProtocolError("unauthenticated", `Unauthenticated: ${what} needs an authenticated caller`);
  }
  throw new ProtocolError(
    "permission_denied",
    `Insufficient scope: ${what} needs ${needed.join(" ")}`,
    { data: { requiredScopes: needed } },
  );
}

/**
 * Refuses a caller that lacks a tool's scopes, as {@link requireScopes} does: on its call, and on every
 * continuation of a call of it (a redeem, an MCP task's read, update or cancellation, a polling URL),
 * so that a token that lost a scope since the call began (down-scoped, re-issued after a revocation)
 * gets the same step-up challenge instead of the result (MCP 2025-11-25, Authorization, Scope
 * Challenge Handling).
 *
 * @param tool The tool that made the call or issued the promise.
 * @param auth The caller of this request.
 * @throws {ProtocolError} When a scope is missing.
 */
export function requireToolScopes(tool: AnyTool, auth: AuthInfo | undefined): void {
  if (tool.scopes !== undefined) requireScopes(tool.scopes, auth, `tool "${tool.name}"`);
}

/**
 * A key for list caches that differ by what a caller may see: empty when no definition has scopes (one
 * list for all), else the caller's relevant scopes, sorted.
 *
 * @param scoped The scopes any listed definition requires (the union).
 * @param auth The caller.
 * @returns The key.
 */
export function scopeKey(scoped: ReadonlySet<string>, auth: AuthInfo | undefined): string {
  if (scoped.size === 0) return "";
  const held = auth?.scopes?.filter((scope) => scoped.has(scope)) ?? [];
  return `|${[...new Set(held)].sort().join(" ")}`;
}

/** A definition that may require scopes: a tool, a resource or a prompt. */
export interface Scoped {
  /** The scopes a caller must hold to see and use it. */
  readonly scopes?: readonly string[];
}

/** Which of a registry's tables a list shows. */
export type ScopedKind = "tools" | "resources" | "prompts";

/**
 * The scopes any registered definition of a kind requires (the union), computed once per change of the
 * registry.
 *
 * @param registry The registry.
 * @param kind The tools, the resources or the prompts.
 * @returns The scopes; empty when no definition of the kind has any.
 */
export function scopesOf(registry: Registry, kind: ScopedKind): ReadonlySet<string> {
  return registry.cached(
    SCOPES,
    kind,
    () => new Set([...(registry[kind] as Iterable<Scoped>)].flatMap((item) => item.scopes ?? [])),
  );
}

/**
 * The scopes any registered tool requires (the union), computed once per change of the registry.
 *
 * @param registry The registry.
 * @returns The scopes; empty when no tool has any.
 */
export function toolScopes(registry: Registry): ReadonlySet<string> {
  return scopesOf(registry, "tools");
}

/** What a caller may see of a list, and the key its cached form is kept under. */
export interface Visible<T> {
  /** Builds the definitions the caller may see, in registration order. */
  readonly items: () => T[];
  /** The cache key: the list's own key, followed by the caller's relevant scopes when any definition has some. */
  readonly key: string;
  /** Whether the list depends on the caller (then it is never shared: `private`). */
  readonly private: boolean;
}

/**
 * The definitions of a kind a caller may see, and the key its list is cached under beside `base`.
 *
 * @param registry The registry.
 * @param kind The tools, the resources or the prompts.
 * @param auth The caller.
 * @param base The list's cache key when no definition of the kind has scopes.
 * @returns The definitions, the key, and whether the list depends on the caller.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { definePrompt } from "../../assembly/served-prompts.ts";
 * import { Definitions } from "./registry.ts";
 * import { Runtime } from "../instance/runtime.ts";
 * import { visibleTo } from "./scopes.ts";
 *
 * const registry = new Definitions(new Runtime());
 * registry.addPrompt(definePrompt("hello").get(() => "hi"));
 * registry.addPrompt(definePrompt("audit").scopes("admin").get(() => "audit"));
 * const reader = visibleTo(registry, "prompts", { subject: "ada", scopes: [] }, "prompts");
 * assert.deepEqual(reader.items().map((p) => p.name), ["hello"]);
 * assert.equal(reader.private, true);
 * assert.notEqual(reader.key, visibleTo(registry, "prompts", { subject: "root", scopes: ["admin"] }, "prompts").key);
 * ```
 */
export function visibleTo<K extends ScopedKind>(
  registry: Registry,
  kind: K,
  auth: AuthInfo | undefined,
  base: string,
): Visible<Registry[K] extends Iterable<infer T> ? T : never> {
  type T = Registry[K] extends Iterable<infer T> ? T : never;
  const suffix = scopeKey(scopesOf(registry, kind), auth);
  return {
    items: () => [...(registry[kind] as Iterable<T & Scoped>)].filter((item) => holdsScopes(item.scopes, auth)),
    key: base + suffix,
    private: suffix !== "",
  };
}

/**
 * The tools a caller may see (of those the registry lists: {@link Registry.listing}), and the key its list is cached under beside `base`.
 *
 * @param registry The registry.
 * @param auth The caller.
 * @param base The list's cache key when no tool has scopes.
 * @returns The tools, the key, and whether the list depends on the caller (then never shared).
 */
export function visibleTools(
  registry: Registry,
  auth: AuthInfo | undefined,
  base: string,
): { tools: () => AnyTool[]; key: string; private: boolean } {
  const visible = visibleTo(registry, "tools", auth, base);
  const listing = registry.listing;
  const tools = listing === undefined ? visible.items : () => visible.items().filter(listing);
  return { tools, key: visible.key, private: visible.private };
}
