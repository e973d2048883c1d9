/**
 * HTTP statuses as error codes, both ways' shared part: the conditions a status names whatever the wire, as a
 * client reads a reply without a body it can parse.
 *
 * @module
 */
import type { ErrorCode } from "./error.ts";

/** HTTP statuses that name a condition whatever the wire (RFC 9110 §15; RFC 6750 §3.1 for 401 and 403). */
const BY_HTTP_STATUS: ReadonlyMap<number, ErrorCode> = new Map([
  [401, "unauthenticated"],
  [403, "permission_denied"],
  [405, "method_not_allowed"],
  [408, "request_timeout"],
  [413, "payload_too_large"],
  [415, "unsupported_media_type"],
  [429, "rate_limited"],
  [503, "unavailable"],
  [504, "deadline_exceeded"],
]);

/**
 * The nearest error code to an HTTP status.
 *
 * @param status The HTTP status.
 * @returns The code, or `undefined` for a status that names none.
 */
export function codeOfHttpStatus(status: number | undefined): ErrorCode | undefined {
  return status === undefined ? undefined : BY_HTTP_STATUS.get(status);
}
