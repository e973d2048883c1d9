/**
 * What a proxy answers when the second hop fails: the remote's own error code kept (an unknown tool stays
 * `unknown_tool`, bad arguments stay `invalid_arguments`), and a remote out of reach `unavailable` with
 * `retryAfterMs` (503 with `Retry-After` on HTTP, RFC 9110 §15.6.4; `UNAVAILABLE` on gRPC), never a tool error.
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../core/error.ts";
import { ClientError } from "../client/errors.ts";
import { sentErrorCode } from "../client/error-codes.ts";

/** The codes that say the remote could not be reached or answered nothing readable. */
const UNREACHABLE: ReadonlySet<string> = new Set(["transport", "protocol", "unavailable"]);

/**
 * Turns the client's error into the error this server answers with.
 *
 * @param error What the client threw.
 * @param retryAfterMs The wait a caller is told when the remote is out of reach.
 * @returns The error to throw: a `ProtocolError`, or `error` itself when it is not the client's.
 */
export function remoteError(error: unknown, retryAfterMs: number): unknown {
  if (!(error instanceof ClientError)) return error;
  if (UNREACHABLE.has(error.code)) {
    return new ProtocolError(ErrorCode.Unavailable, `The remote server is unavailable: ${error.message}`, {
      data: { retryAfterMs },
      cause: error,
    });
  }
  if (error.code === "timeout") {
    return new ProtocolError(ErrorCode.DeadlineExceeded, error.message, { cause: error });
  }
  const code = sentErrorCode(error.code) ?? ErrorCode.Internal;
  return new ProtocolError(code, error.message, {
    ...(error.data === undefined ? {} : { data: error.data }),
    cause: error,
  });
}
