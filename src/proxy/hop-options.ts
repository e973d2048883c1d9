/**
 * How a proxy's second hop goes, as its definitions share it.
 *
 * @module
 */

import type { CallContext } from "../core/call/call-context.ts";
import type { Client } from "../client/client.ts";
import type { ResourceWatch } from "../core/definitions/resource-watch.ts";

/** What the proxied tools, prompts and resources share. */
export interface HopOptions {
  /** The remote's name as a caller may see it in an error: the proxy server's name (never its URL). */
  readonly name: string;
  /** The wait (ms) a caller is told, as `Retry-After`, when the remote is out of reach. */
  readonly retryAfterMs: number;
  /** Says the remote's lists changed behind the mirror's back (it answered a mounted tool as unknown). */
  readonly stale: () => void;
  /**
   * Makes a call through its client: the proxy's own session and credentials, or the caller's own session (held
   * meanwhile), and its credentials where the policy allows.
   */
  readonly withClient: <T>(ctx: Pick<CallContext, "auth" | "meta">, use: (client: Client) => Promise<T>) => Promise<T>;
  /** Subscribes at the remote to a resource's URI while a caller listens; absent when the remote cannot be. */
  readonly watch?: ResourceWatch;
}
