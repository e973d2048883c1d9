/**
 * Elicitation's two modes (MCP 2025-11-25, Client Features, Elicitation): a form the client renders, or a
 * URL the user opens out of band (a sign-in, a payment page), which keeps what the user types there away
 * from the client and the model. The URL's rules, the `-32042` error and the capability each mode needs.
 *
 * @module
 */
import { ProtocolError, ToolError } from "../../errors/error.ts";
import type { CallMeta } from "./call-meta.ts";
import { cannotAsk } from "./client-view.ts";

/** A form-mode elicitation: the client renders the form and returns what the user submitted. */
export interface FormElicitation {
  /** `form`, the default. */
  mode?: "form";
  /** What to tell the user. */
  message: string;
  /** The JSON Schema of the form (a flat object of primitives, per MCP). */
  requestedSchema: Record<string, unknown>;
}

/**
 * A URL-mode elicitation: the client shows the URL and, with the user's consent, opens it; what happens
 * there never passes through the client. The URL is `https:` (or `http:` on localhost, for development),
 * and carries no credentials or personal data (MCP 2025-11-25, Elicitation: URL mode, Security).
 */
export interface UrlElicitation {
  /** `url`. */
  mode: "url";
  /** Why the user should open the page, shown with it. */
  message: string;
  /**
   * The page to open, or a function that makes it from the elicitation's id: on MCP 2026-07-28 and
   * MCP-lite a handler runs again from the top once the client answers, and the id (not a value the
   * handler minted before asking) is the same in every round of the call.
   */
  url: string | URL | ((elicitationId: string) => string | URL);
  /**
   * The id that names this elicitation in `notifications/elicitation/complete` (MCP 2025-11-25); unique
   * per elicitation. Absent: a random UUID, minted once and kept across the call's input rounds (in the
   * round's signed state, as MCP 2026-07-28 asks of a server that correlates an out-of-band flow).
   */
  elicitationId?: string;
}

/** What the user did with a URL-mode elicitation; `accept` means they agreed to open the page, not that they finished. */
export interface UrlElicitResult {
  /** `accept`: the user agreed to open the URL; `decline` or `cancel`: they did not. */
  action: "accept" | "decline" | "cancel";
  /** The elicitation's id, to complete it with `ctx.completeElicitation()`. */
  elicitationId: string;
}

/** MCP 2025-11-25's JSON-RPC code for "URL elicitation required". */
export const URL_ELICITATION_REQUIRED = -32042;

/** Hosts where `http:` is allowed: the developer's own machine. */
const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])$/;

/**
 * Checks an elicitation URL: absolute, `https:` (or `http:` on localhost), with no user name or password
 * in it (MCP 2025-11-25, Elicitation, URL mode: the URL carries no credentials).
 *
 * @param url The URL.
 * @returns The URL, serialised.
 * @throws {TypeError} For a relative URL, another scheme, or credentials in it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkElicitationUrl } from "./elicitation.ts";
 * assert.equal(checkElicitationUrl("https://pay.example.com/checkout?s=1"), "https://pay.example.com/checkout?s=1");
 * assert.equal(checkElicitationUrl("http://localhost:8080/cb"), "http://localhost:8080/cb");
 * assert.throws(() => checkElicitationUrl("http://pay.example.com/"), TypeError);
 * assert.throws(() => checkElicitationUrl("javascript:alert(1)"), TypeError);
 * ```
 */
export function checkElicitationUrl(url: string | URL): string {
  const parsed = URL.parse(String(url));
  const secure = parsed?.protocol === "https:" || (parsed?.protocol === "http:" && LOOPBACK.test(parsed.hostname));
  if (!secure || parsed!.username !== "" || parsed!.password !== "") {
    throw new TypeError(`An elicitation URL is https: (or http: on localhost), without credentials: ${String(url)}`);
  }
  return parsed!.href;
}

/**
 * The params of a URL-mode `elicitation/create`, checked.
 *
 * @param page The elicitation.
 * @param elicitationId Its id.
 * @returns `{ mode: "url", message, url, elicitationId }`.
 * @throws {TypeError} For an invalid URL, an empty message or id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { urlElicitationParams } from "./elicitation.ts";
 * const page = { mode: "url" as const, url: "https://pay.example.com/", message: "Pay" };
 * assert.equal(urlElicitationParams(page, "o-1").elicitationId, "o-1");
 * assert.throws(() => urlElicitationParams({ ...page, message: "" }, "o-1"), TypeError);
 * ```
 */
export function urlElicitationParams(
  page: UrlElicitation,
  elicitationId: string,
): { mode: "url"; message: string; url: string; elicitationId: string } {
  if (!page.message || !elicitationId) throw new TypeError("A URL elicitation needs a message and an id");
  const url = typeof page.url === "function" ? page.url(elicitationId) : page.url;
  return { mode: "url", message: page.message, url: checkElicitationUrl(url), elicitationId };
}

/**
 * The error that says a request cannot go on until the user completes URL elicitations (MCP 2025-11-25,
 * Elicitation: `URLElicitationRequiredError`, JSON-RPC `-32042`, `data.elicitations`). A handler throws
 * it where it cannot ask in the middle of the call, or prefers not to: the client shows the URLs, and
 * calls again once the user is done. On MCP 2026-07-28, which retired `-32042`, it is answered as an
 * input round asking for the same URLs; on MCP-lite, as an `elicitation` response.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UrlElicitationRequiredError } from "./elicitation.ts";
 * const error = new UrlElicitationRequiredError([
 *   { message: "Sign in to Example", url: "https://auth.example.com/start?flow=7", elicitationId: "flow-7" },
 * ]);
 * assert.equal(error.rpcCode, -32042);
 * assert.equal(error.elicitations[0].mode, "url");
 * ```
 */
export class UrlElicitationRequiredError extends ProtocolError {
  /** The elicitations to complete, as sent in `data.elicitations`. */
  readonly elicitations: readonly { mode: "url"; message: string; url: string; elicitationId: string }[];

  /**
   * Creates the error.
   *
   * @param elicitations The URL elicitations the user must complete, each with its `elicitationId`.
   * @param message The error's message.
   * @throws {TypeError} For an invalid URL or a missing id.
   */
  constructor(
    elicitations: readonly (Omit<UrlElicitation, "mode" | "elicitationId"> & { elicitationId: string })[],
    message = "This request needs you to complete an action in your browser first",
  ) {
    const checked = elicitations.map((page) => urlElicitationParams({ ...page, mode: "url" }, page.elicitationId));
    if (checked.length === 0) throw new TypeError("UrlElicitationRequiredError needs at least one elicitation");
    super(URL_ELICITATION_REQUIRED, message, { data: { elicitations: checked } });
    this.name = "UrlElicitationRequiredError";
    this.elicitations = checked;
  }

  /**
   * What the call pipeline makes of this error (it reads the hook, so that servers that never throw it
   * do not carry this code): `missing_capability` for a client that did not declare URL mode; the
   * call's questions where the wire answers by calling again (MCP 2026-07-28 retired `-32042`; MCP-lite,
   * gRPC); else the error itself (`-32042` on the 2025 revisions).
   *
   * @param meta What the client declared.
   * @param round The call's input round, if the wire has one.
   * @returns The error to fail the call with (a tool failure when the request already answered every
   *   page), or `undefined` when the round took the questions.
   */
  "~ask"(
    meta: CallMeta,
    round: { ask(key: string, params: Record<string, unknown>): boolean } | undefined,
  ): ProtocolError | ToolError | undefined {
    const url = { method: "elicitation/create" as const, params: { mode: "url" } };
    const refused = cannotAsk({ input: () => Promise.resolve() }, meta, url);
    if (refused !== undefined) return refused;
    if (round === undefined) return this;
    let asked = false;
    for (const params of this.elicitations) asked = round.ask(params.elicitationId, { ...params }) || asked;
    if (asked) return undefined;
    // Every page was answered in an earlier round and the handler still cannot go on: the user has not
    // finished there yet. Asking again would loop (a client retries each round); the call fails as a tool
    // failure the caller may retry later, as -32042 asks on the 2025 revisions.
    const pages = this.elicitations.map((page) => `${page.message} (${page.url})`).join("; ");
    return new ToolError(`${this.message}: ${pages}. Call again once it is done.`, {
      data: { elicitations: this.elicitations },
    });
  }
}
