/**
 * What a proxy answers when the second hop fails: the remote's own error code kept (an unknown tool stays
 * `unknown_tool`, bad arguments stay `invalid_arguments`), and a remote out of reach `unavailable` with
 * `retryAfterMs` (503 with `Retry-After` on HTTP, RFC 9110 §15.6.4; `UNAVAILABLE` on gRPC), never a tool error.
 *
 * A caller learns what it may know: the remote's name, a reason, and when to retry. What the client's error
 * says besides (the remote's URL with its query, the body of an HTTP error, a stdio child's stderr) is the
 * proxy's own business, and may quote its credentials: it goes to the server's `onError` only.
 *
 * @module
 */
import { madeByClient, McpliteError, ProtocolError, ToolError } from "../errors/error.ts";
import { withDetail } from "../core/results/error-detail.ts";
import { URL_ELICITATION_REQUIRED, UrlElicitationRequiredError } from "../core/call/elicitation.ts";
import { RestartPending } from "./restart-backoff.ts";

/** Why a remote is unavailable to a caller, as `data.reason` says it. */
export type RemoteReason = "unreachable" | "bad_reply" | "unavailable" | "credentials_refused" | "restarting";

/** The words each reason is told with. */
const TOLD: Readonly<Record<RemoteReason, string>> = {
  unreachable: "it could not be reached",
  bad_reply: "it answered with something other than a reply",
  unavailable: "it says it is unavailable",
  credentials_refused: "it refused the gateway's credentials",
  restarting: "it exited and is started again after a wait",
};

/** The conditions only the proxy's client meets, or a tool's failure: the remote failed, to a caller. */
const CLIENT_ONLY: ReadonlySet<string> = new Set(["tool_error", "cancelled", "input_required", "unsupported"]);

/** The codes by which the remote refuses the credentials the proxy sent (401 and 403, RFC 9110 §15.5.2, §15.5.4). */
const REFUSALS: ReadonlySet<string> = new Set(["unauthenticated", "permission_denied", "forbidden"]);

/**
 * Turns the client's error into the error this server answers with.
 *
 * @param error What the client threw.
 * @param retryAfterMs The wait a caller is told when the remote is out of reach.
 * @param remote The remote's name, as a caller may see it.
 * @returns The error to throw: a `ProtocolError` (the client's error kept for `onError`), or `error` itself
 *   when it is not the client's.
 */
export function remoteError(error: unknown, retryAfterMs: number, remote = "remote"): unknown {
  if (!madeByClient(error)) return error; // not the client's
  const reason = reasonOf(error);
  if (reason !== undefined) {
    const wait = error instanceof RestartPending ? Math.max(retryAfterMs, error.retryAfterMs) : retryAfterMs;
    return withDetail(
      new ProtocolError("unavailable", `The remote server "${remote}" is unavailable: ${TOLD[reason]}`, {
        data: { retryAfterMs: wait, remote, reason },
      }),
      error,
    );
  }
  if (error.code === "timeout" || error.code === "deadline_exceeded") {
    return withDetail(
      new ProtocolError("deadline_exceeded", `The remote server "${remote}" did not answer in time`),
      error,
    );
  }
  // The remote's own failure, or a condition of the proxy's client (input it cannot give, a cancelled task).
  const code = error instanceof ToolError || CLIENT_ONLY.has(error.code) ? "internal" : error.code;
  if (code === "internal") { // the remote's failure is its own: its message and data are for logs
    return withDetail(new ProtocolError(code, `The remote server "${remote}" failed`), error);
  }
  if (!(error instanceof ProtocolError)) { // an HTTP status without a reply: its message quotes the body
    const wait = (error.data as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
    return withDetail(
      new ProtocolError(code, `The remote server "${remote}" refused the call (${code})`, {
        ...(typeof wait === "number" ? { data: { retryAfterMs: wait } } : {}),
      }),
      error,
    );
  }
  // A condition the remote names in its reply to the call (an unknown tool, bad arguments…): the caller's.
  if (error.rpcCode === URL_ELICITATION_REQUIRED) return urlElicitationRequired(error, remote);
  return new ProtocolError(code, error.message, {
    ...(error.data === undefined ? {} : { data: error.data }),
    cause: error,
  });
}

/**
 * The remote's `-32042` (MCP 2025-11-25, Elicitation: `URLElicitationRequiredError`) as ours, so the caller is
 * sent to the same pages on its own wire: `-32042` with `data.elicitations` on the 2025 revisions, an input round on
 * 2026-07-28, an `elicitation` response on MCP-lite. Pages our own tools could not send (a URL that is not `https:`,
 * one with credentials) are not passed on: the remote failed.
 */
function urlElicitationRequired(error: ProtocolError, remote: string): ProtocolError {
  const pages = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  try {
    return new UrlElicitationRequiredError(pages as never, error.message);
  } catch {
    return withDetail(new ProtocolError("internal", `The remote server "${remote}" failed`), error);
  }
}

/** Why the remote is out of reach, when it is (else the error is the remote's answer to the call). */
function reasonOf(error: McpliteError): RemoteReason | undefined {
  if (error instanceof RestartPending) return "restarting";
  if (REFUSALS.has(error.code)) return "credentials_refused"; // never the gateway's own 401 (RFC 6750 §3.1)
  if (error.code === "transport") return error.status === undefined ? "unreachable" : "bad_reply";
  if (error.code === "protocol") return "bad_reply";
  if (error.code === "unavailable") return "unavailable";
  return undefined;
}
