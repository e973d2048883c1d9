/**
 * How a proxy's second hop goes, as its definitions share it.
 *
 * @module
 */

import type { CallContext } from "../core/call-context.ts";
import type { Client } from "../client/client.ts";
import type { ResourceWatch } from "../core/resource-watch.ts";

/** What the proxied tools, prompts and resources share. */
export interface HopOptions {
  /** The remote's name as a caller may see it in an error: the proxy server's name (never its URL). */
  readonly name: string;
  /** The wait (ms) a caller is told, as `Retry-After`, when the remote is out of reach. */
  readonly retryAfterMs: number;
  /** Says the remote's lists changed behind the mirror's back (it answered a mounted tool as unknown). */
  readonly stale: () => void;
  /**
   * The client a call goes through: the proxy's own session and credentials, or the caller's own session, and its
   * credentials where the policy allows.
   */
  readonly clientFor: (ctx: Pick<CallContext, "auth" | "meta">) => Promise<Client>;
  /** Subscribes at the remote to a resource's URI while a caller listens; absent when the remote cannot be. */
  readonly watch?: ResourceWatch;
}
