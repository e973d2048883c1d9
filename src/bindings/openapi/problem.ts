/**
 * Errors as RFC 9457 problem details (`application/problem+json`): the HTTP status of each error code,
 * the `about:blank` problem type with the status phrase as its title (RFC 9457 §4.2.1), the failing
 * paths of invalid arguments as JSON Pointers (RFC 9457 §3, the `errors` extension example), and
 * `Retry-After` for rate limits (RFC 9110 §10.2.3). A failure the server did not raise on purpose is
 * masked.
 *
 * @module
 */
import { raisedHere } from "../../errors/error.ts";
import { type ValidationIssue } from "../../core/mod.ts";
import { errorCodeToWebtools } from "../../errors/webtools-codes.ts";

/** The media type of a problem (RFC 9457 §3). */
export const PROBLEM_TYPE = "application/problem+json";

/** A problem details object (RFC 9457 §3.1), with this SDK's extension members. */
export interface Problem {
  /** Always `about:blank`: the status says what happened (RFC 9457 §4.2.1). */
  type: "about:blank";
  /** The HTTP status phrase. */
  title: string;
  /** The HTTP status. */
  status: number;
  /** What went wrong, for this occurrence. */
  detail: string;
  /** The SDK's error code (`invalid_arguments`, `rate_limited`, `tool_error`, …). */
  code: string;
  /** For invalid arguments: each failing argument, as a JSON Pointer into the request body, and why. */
  errors?: { pointer: string; detail: string }[];
  /** Structured details that are safe to show (a business failure's structured content, a rate limit's wait). */
  data?: unknown;
}

const PHRASES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  504: "Gateway Timeout",
};

/**
 * Builds a problem.
 *
 * @param status The HTTP status.
 * @param code The SDK's error code.
 * @param detail What went wrong.
 * @param data Safe structured details, if any.
 * @returns The problem.
 */
export function problem(status: number, code: string, detail: string, data?: unknown): Problem {
  const body: Problem = { type: "about:blank", title: PHRASES[status] ?? "Error", status, detail, code };
  if (data !== undefined) body.data = data;
  return body;
}

/**
 * Answers a problem as `application/problem+json`.
 *
 * @param body The problem.
 * @param headers More headers (`Allow`, `Retry-After`).
 * @returns The response.
 */
export function problemResponse(body: Problem, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { "content-type": PROBLEM_TYPE, ...headers },
  });
}

/**
 * Turns an error into its problem and the headers that go with it: the status of its code, the failing
 * paths of invalid arguments, `Retry-After` when the error says how long to wait; a 500 with a fixed
 * message for an error the SDK did not raise (reported first).
 *
 * @param error What was thrown.
 * @param report Receives an unexpected error.
 * @returns The problem and its headers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ErrorCode, ProtocolError } from "../../errors/error.ts";
 * import { problemOf } from "./problem.ts";
 * const limited = new ProtocolError(ErrorCode.RateLimited, "slow down", { data: { retryAfterMs: 1500 } });
 * const { body, headers } = problemOf(limited, () => {});
 * assert.equal(body.status, 429);
 * assert.equal(headers["retry-after"], "2");
 * ```
 */
export function problemOf(
  error: unknown,
  report: (error: unknown) => void,
): { body: Problem; headers: Record<string, string> } {
  if (!raisedHere(error)) {
    report(error);
    return { body: problem(500, "internal", "Internal error"), headers: {} };
  }
  const { status } = errorCodeToWebtools(error.code);
  const headers: Record<string, string> = {};
  const data = error.data as { retryAfterMs?: unknown; issues?: ValidationIssue[] } | undefined;
  if (typeof data?.retryAfterMs === "number" && data.retryAfterMs >= 0) {
    headers["retry-after"] = String(Math.ceil(data.retryAfterMs / 1000));
  }
  const body = problem(status, error.code, error.message, error.data);
  if (error.code === "invalid_arguments" && Array.isArray(data?.issues)) {
    body.errors = data.issues.map((issue) => ({ pointer: pointerOf(issue.path), detail: issue.message }));
  }
  return { body, headers };
}

/** A dotted path (`address.city`, `tags.0`) as a JSON Pointer into the body (RFC 6901), e.g. `/address/city`. */
function pointerOf(path: string): string {
  if (path === "") return "";
  return "/" + path.split(".").map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
}
