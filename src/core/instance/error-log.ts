/**
 * Where the server's errors go when `createServer()` names no `onError`: the `logger`'s `error` as one record,
 * else one line on `console.error`, so that a handler's bug or a result its output schema refuses always leaves
 * a trace on the server. `logger: false` keeps the server quiet (as Fastify's and Pino's `false` does): a test
 * that throws on purpose says so.
 *
 * @module
 */
import type { ServerLogger } from "./logger.ts";
import type { ErrorReporter } from "./runtime.ts";
import { withTraceIds } from "../call/trace-context.ts";
import { traceparentOf } from "../call/caller-trace.ts";

/** A logger that records nothing: what `logger: false` stands for. */
const SILENT: ServerLogger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The server's logger and error reporter from its options: the `onError` given, else the logger's `error`,
 * else one line on `console.error`; `logger: false` stands for a logger that records nothing, the server's own
 * warnings included.
 *
 * @param onError The `onError` option.
 * @param logger The `logger` option.
 * @returns The logger (`undefined`: none given) and the reporter.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serverLogging } from "./error-log.ts";
 * const lines: unknown[][] = [];
 * const logger = { debug() {}, info() {}, warn() {}, error: (...a: unknown[]) => void lines.push(a) };
 * serverLogging(undefined, logger).onError(new TypeError("x is undefined"));
 * assert.deepEqual(lines[0][1], "x is undefined");
 * ```
 */
export function serverLogging(
  onError: ErrorReporter | undefined,
  logger: ServerLogger | false | undefined,
): { logger: ServerLogger | undefined; onError: ErrorReporter } {
  const own = logger === false ? SILENT : logger;
  // Each error as one record of the logger (the error as `err`, what is known of its call), else as one line.
  return {
    logger: own,
    onError: onError ?? ((error, call, report) => {
      // What is known of its call: the tool, the JSON-RPC id, the trace, the reference the caller was given.
      const fields: Record<string, unknown> = {};
      if (call !== undefined) {
        fields.tool = call.name;
        const id = call.ctx.meta.requestId;
        if (id != null) fields.requestId = id;
        withTraceIds(fields, traceparentOf(call.ctx)); // an invalid one names no trace
        // A queued job's, as its worker reports it (src/jobs/job-call.ts): the job and its start.
        Object.assign(fields, (call.ctx as { job?: object }).job);
      }
      if (report?.reference !== undefined) fields.reference = report.reference;
      if (report?.repeated) fields.repeated = report.repeated;
      if (own !== undefined) {
        own.error({ err: error, ...fields }, error instanceof Error ? error.message : String(error));
        return;
      }
      // One line: the call, then the error's name, message and the first frame of its stack (where the handler
      // threw; none for the SDK's own reports, whose stack is the SDK's), e.g.
      // `mcplite: tool "forecast" failed (request 7, reference 1f0c9a3e): TypeError: … at …`.
      const { tool: _, trace_flags: __, ...rest } = fields;
      const about = Object.entries(rest).map(([key, value]) => `${LABEL[key] ?? key} ${value}`).join(", ");
      const frame = error instanceof Error && !/^(OutputMismatch|Token|Protocol)Error$/.test(error.name)
        ? /\n\s*(at .+)/.exec(error.stack ?? "")?.[1]
        : undefined;
      const text = error instanceof Error ? `${error.name}: ${error.message}${frame ? ` ${frame}` : ""}` : error;
      const head = call === undefined ? "error" : `tool ${JSON.stringify(call.name)} failed`;
      console.error(`mcplite: ${head}${about ? ` (${about})` : ""}: ${text}`.replace(/\s*[\r\n]+\s*/g, " "));
    }),
  };
}

/** How the line names the fields the logger's record carries. */
const LABEL: Readonly<Record<string, string>> = { requestId: "request", trace_id: "trace", span_id: "span" };
