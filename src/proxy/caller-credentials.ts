/**
 * Which credentials a proxied call carries to the remote. By default the proxy's own (the client's
 * `headers` and `auth`), never the caller's: MCP 2025-11-25, Authorization, forbids passing a token through
 * to a service it was not issued for. On request, the caller's token goes on only when its audience (`aud`,
 * RFC 8707 resource indicators) names the remote, or is exchanged for one that does (RFC 8693).
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import type { AuthInfo } from "../core/call/host.ts";

/** What `proxy()` was told about the caller's credentials. */
export interface CredentialPolicy {
  /** Forwards a caller's token whose `aud` names this resource. */
  readonly forwardAudience?: string;
  /** Exchanges the caller's token for one issued for the remote (RFC 8693). */
  readonly exchange?: (callerToken: string, caller: AuthInfo) => string | undefined | Promise<string | undefined>;
}

/**
 * The bearer token of the caller's to send the remote, if the policy allows one.
 *
 * @param ctx The call's context (its `auth`, as the server's `auth` verified it).
 * @param policy The policy.
 * @returns The token, or `undefined` to send the proxy's own credentials.
 */
export async function callerToken(
  ctx: Pick<CallContext, "auth">,
  policy: CredentialPolicy,
): Promise<string | undefined> {
  const auth = ctx.auth;
  const token = auth?.token;
  if (auth === undefined || typeof token !== "string" || token === "") return undefined;
  if (policy.exchange !== undefined) return await policy.exchange(token, auth) ?? undefined;
  if (policy.forwardAudience === undefined) return undefined;
  const aud = auth.claims?.aud;
  const audiences = Array.isArray(aud) ? aud : [aud];
  return audiences.includes(policy.forwardAudience) ? token : undefined;
}
