/**
 * The `redeem` system tool as the wires name it (MCP-lite spec v0.042 §3.6): its name and its arguments. A contract
 * of the core, which lists the tool and leaves it out of what a server mounts; the jobs layer does its work
 * (`src/jobs/redeem.ts`).
 *
 * @module
 */

/** The name of the system tool that redeems promise tokens (MCP-lite spec v0.042 §3.6). */
export const REDEEM_TOOL = "redeem";

/** The arguments of `redeem`. */
export interface RedeemArgs {
  /** The promise token. */
  promise: string;
  /** Cancels the promise instead of redeeming it. */
  cancel?: boolean;
}
