/**
 * Which client a proxied call goes through: the proxy's own (its session, its credentials), or, for a caller told
 * apart at an MCP 2025 remote over HTTP (`callerKey()`: its principal, else its own MCP 2025 session), that
 * caller's own session (./caller-sessions.ts), where its log level is set; and the caller's token in place of the
 * proxy's credentials where the policy allows (./caller-credentials.ts).
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import { callerKey } from "../core/call/caller-key.ts";
import type { Client } from "../client/client.ts";
import { callerToken, type CredentialPolicy } from "./caller-credentials.ts";
import type { Remote } from "./remote.ts";
import { setSessionLevel } from "./session-level.ts";

/** What a call is known by: who the caller is, and what the server knows of it. */
export type Caller = Pick<CallContext, "auth" | "meta">;

/** The choice of a call's client, told later whether callers are kept apart. */
export interface CallerClients {
  /**
   * Makes a call through its client, which a caller's own session is held for meanwhile (./caller-sessions.ts).
   *
   * @param caller Who calls.
   * @param use Makes the call.
   * @returns What the call gave.
   */
  withClient<T>(caller: Caller, use: (client: Client) => Promise<T>): Promise<T>;
  /**
   * From now on, each caller told apart gets a session of its own (the remote keeps MCP 2025 sessions).
   *
   * @param logging Whether the remote declared `logging` (a caller's level is then set in its session).
   */
  keepApart(logging: boolean): void;
}

/**
 * Makes the choice.
 *
 * @param remote The remote.
 * @param policy Whether a caller's token is sent.
 * @returns The choice.
 * @throws {TypeError} When the policy sends a token to a remote that takes none (not a URL).
 */
export function callerClients(remote: Remote, policy: CredentialPolicy): CallerClients {
  const forCaller = remote.forCaller?.bind(remote);
  if ((policy.forwardAudience !== undefined || policy.exchange !== undefined) && forCaller === undefined) {
    throw new TypeError(
      "proxy(): forwardCallerToken and exchangeToken need a URL target (the token goes in its headers)",
    );
  }
  let apart = false, logging = false;
  return {
    async withClient(caller, use) {
      if (forCaller === undefined) return await use(remote.client);
      const token = await callerToken(caller, policy);
      const key = apart ? callerKey(caller.auth, caller.meta.sessionId) : undefined;
      if (token === undefined && key === undefined) return await use(remote.client);
      const held = forCaller(key, token);
      try {
        if (key !== undefined && logging) await setSessionLevel(held.client, caller.meta.logLevel);
        return await use(held.client);
      } finally {
        held.release();
      }
    },
    keepApart(declaresLogging) {
      apart = true;
      logging = declaresLogging;
    },
  };
}
