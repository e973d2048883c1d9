/**
 * The callback URL check, at subscribe and again before every delivery attempt (DNS may have changed since):
 * HTTPS only, no credentials or fragment, and every address the host resolves to outside the ranges a server must
 * not reach (`address-ranges.ts`; SEP-3415 "Events Extension", OpenAI's MCP Events guide), unless the URL's origin
 * is allow-listed (`events.allowCallbacks`: development and tests, where http and loopback are fine).
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { echoed } from "../../internal/echo.ts";
import { isAddressLiteral, refusedAddress } from "./address-ranges.ts";

/** SEP-3415's code for a forbidden request: here, a callback URL refused. */
const FORBIDDEN = -32012;

/** Resolves a host name to its addresses (`node:dns/promises`' `lookup(host, { all: true })`). */
export type Lookup = (host: string) => Promise<readonly string[]>;

/** Why a callback URL was refused. */
export type CallbackRefusal = "malformed" | "scheme" | "credentials" | "fragment" | "address" | "unresolved";

/**
 * A callback URL refused (Forbidden: -32012; to a client of SEP-3415's profile -32024, or invalid params -32602 for a
 * URL of the wrong form: `refusedForItsForm()`): the events server answers it so. `reason` says why; `"unresolved"`
 * (its host did not resolve) may pass later, the others will not.
 */
export class CallbackRefusedError extends ProtocolError {
  /** Why it was refused. */
  readonly reason: CallbackRefusal;

  /**
   * Creates the error.
   *
   * @param reason Why.
   * @param message What the caller reads.
   */
  constructor(reason: CallbackRefusal, message: string) {
    super(FORBIDDEN, `The callback URL is refused: ${message}`, { data: { reason } });
    this.name = "CallbackRefusedError";
    this.reason = reason;
  }
}

/**
 * Whether a callback was refused for its form (not a URL, not https, credentials, a fragment), the request's fault,
 * rather than for where it points: SEP-3415 answers a non-https callback with `InvalidParams`.
 *
 * @param error A callback refusal.
 * @returns Whether its reason is the URL's form.
 */
export function refusedForItsForm(error: CallbackRefusedError): boolean {
  return ["malformed", "scheme", "credentials", "fragment"].includes(error.reason);
}

/**
 * Checks a callback URL before a subscription takes it and before each delivery to it.
 *
 * @param url The callback URL.
 * @param allow The allow-listed origins (`events.allowCallbacks`): a URL of one is taken as is (http, loopback); an
 *   origin without a port allows every port of its host.
 * @param lookup Resolves a host (default `node:dns/promises`' `lookup`, where the runtime has it).
 * @throws {CallbackRefusedError} When the URL is refused, or its host does not resolve.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkCallback } from "./callback-check.ts";
 * await assert.rejects(checkCallback("https://127.0.0.1/hook", []), { name: "CallbackRefusedError" });
 * await checkCallback("http://127.0.0.1:8080/hook", ["http://127.0.0.1:8080"]); // allow-listed: fine
 * ```
 */
export async function checkCallback(url: string, allow: readonly string[], lookup?: Lookup): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CallbackRefusedError("malformed", "it is not a URL");
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new CallbackRefusedError("credentials", "it carries credentials");
  }
  if (parsed.hash !== "" || url.includes("#")) throw new CallbackRefusedError("fragment", "it carries a fragment");
  if (allow.some((entry) => allows(entry, parsed))) return;
  if (parsed.protocol !== "https:") throw new CallbackRefusedError("scheme", "it is not https");
  const host = parsed.hostname;
  if (isAddressLiteral(host)) {
    const why = refusedAddress(host);
    if (why !== undefined) throw new CallbackRefusedError("address", `${echoed(host)} is ${why}`);
    return;
  }
  let addresses: readonly string[];
  try {
    addresses = await (lookup ?? systemLookup)(host);
  } catch (error) {
    if (error instanceof CallbackRefusedError) throw error;
    throw new CallbackRefusedError("unresolved", `${echoed(host)} does not resolve`);
  }
  if (addresses.length === 0) throw new CallbackRefusedError("unresolved", `${echoed(host)} does not resolve`);
  for (const address of addresses) {
    const why = refusedAddress(address);
    // The address stays unsaid: the subscriber learns that the name is refused, not what it resolves to here.
    if (why !== undefined) throw new CallbackRefusedError("address", `${echoed(host)} resolves to ${why}`);
  }
}

/** An entry with an explicit port (`http://127.0.0.1:8080`), which allows that port only. */
const WITH_PORT = /^[a-z][a-z0-9+.-]*:\/\/(\[[^\]]*\]|[^/:?#]*):\d+/i;

/**
 * Whether an allow-list entry (an origin) allows a URL: the same origin; an entry without a port allows every port of
 * its scheme and host (`http://127.0.0.1`: a test's receiver listens on any free port).
 */
function allows(entry: string, url: URL): boolean {
  let origin: URL;
  try {
    origin = new URL(entry);
  } catch {
    return false;
  }
  if (WITH_PORT.test(entry)) return origin.origin === url.origin;
  return origin.protocol === url.protocol && origin.hostname === url.hostname;
}

/** `node:dns/promises`' `lookup`, every address, loaded on first use (the one place events reach `node:*`). */
async function systemLookup(host: string): Promise<readonly string[]> {
  let dns: { lookup(host: string, options: { all: true; verbatim: true }): Promise<{ address: string }[]> };
  try {
    dns = await import("node:dns/promises");
  } catch {
    // No resolver here (a Worker without nodejs_compat): refused, never let through unchecked.
    throw new CallbackRefusedError(
      "unresolved",
      `${echoed(host)} cannot be resolved here: this runtime has no node:dns`,
    );
  }
  return (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}
