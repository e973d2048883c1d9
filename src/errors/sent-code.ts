/**
 * The {@link ErrorCode} a server of ours names its error with (JSON-RPC `error.data.code`, gRPC
 * `google.rpc.ErrorInfo.reason`, the Webtools envelope's `error.reason`), as a client reads it; for a server that
 * sends none, each wire's table (`jsonrpc.ts`, `grpc.ts`, `webtools.ts`, `http.ts`) gives the nearest code.
 *
 * @module
 */
import type { ErrorCode, ServedErrorCode } from "./error.ts";

// The values as one string, not `Object.values(ErrorCode)`, so that the client bundles no `ErrorCode`
// object; `satisfies Listed` fails to type-check when the list and the type differ.
type Words<S extends string> = S extends `${infer W} ${infer R}` ? W | Words<R> : S;
type Listed<S extends string> = [Exclude<ServedErrorCode, Words<S>> | Exclude<Words<S>, ServedErrorCode>] extends
  [never] ? S
  : never;
const LIST =
  "parse_error invalid_request method_not_found unknown_tool invalid_arguments invalid_envelope invalid_params invalid_config payload_too_large request_timeout unsupported_media_type method_not_allowed forbidden unauthenticated permission_denied header_mismatch missing_capability unsupported_version resource_not_found rate_limited deadline_exceeded unavailable internal custom";
const KNOWN: ReadonlySet<string> = new Set((LIST satisfies Listed<typeof LIST>).split(" "));

/**
 * Reads an error code a server of ours sent.
 *
 * @param value The field that carries it (`data.code`, `ErrorInfo.reason` in either case, `error.reason`).
 * @returns The code, or `undefined` when the value is not one.
 */
export function sentErrorCode(value: unknown): ErrorCode | undefined {
  if (typeof value !== "string") return undefined;
  const code = value.toLowerCase();
  return KNOWN.has(code) ? code as ErrorCode : undefined;
}
