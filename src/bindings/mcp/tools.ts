/**
 * `tools/list` and `tools/call` over MCP. A call runs through the call pipeline, and its outcome
 * becomes the revision's result: a `CallToolResult`, an `InputRequiredResult` (2026-07-28) or a
 * `CreateTaskResult` (2026-07-28, tasks extension).
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import {
  type AnyTool,
  callNow,
  type CallOutcome,
  describeTool,
  failureResult,
  REDEEM_TOOL,
  registryOf,
  scoping,
} from "../../core/mod.ts";
import { assertNever } from "../../internal/assert-never.ts";
import { becomesTask, declaresTasks, RESULT_ERROR_CODE } from "../../internal/mcp-wire.ts";
import { isObject } from "../../internal/is-object.ts";
import { checkParamHeaders } from "./headers.ts";
import { holdPromise } from "./hold.ts";
import { inputRequiredResult, roundOf } from "./input-required.ts";
import { listReply } from "./pagination.ts";
import { paramHeadersOf } from "./param-headers.ts";
import { shapeOf, toolDescriptorFor, toolResultFor } from "./revision.ts";
import { answersAsToolResult } from "../../errors/mcp-codes.ts";
import type { Channel, McpContext, McpMethod, McpRequest } from "./mcp-request.ts";
import { callMetaOf, type McpSink, sinkFor } from "./sink.ts";
import { createTaskResult, tasksRequired } from "./tasks.ts";
import { ownLayer } from "./request-middleware.ts";

/**
 * Lists the tools, one page per request; pages are built once per change of the tool table. A 2025
 * client never sees a tool that needs the 2026 tasks extension (`taskSupport: "required"`): it could
 * not declare the extension, so every call would be refused (-32021).
 *
 * The `redeem` system tool is listed only to a client that may be told to call it: one without tasks
 * (the 2025 revisions, and 2026-07-28 without the extension), whose call of a long-running tool is held
 * (`hold.ts`) and, past the hold, answers a promise for the model to redeem. A request that declared
 * the tasks extension gets a task for every promise and never a token, so `redeem` would be a tool its
 * model sees and cannot use; nor is it listed when no tool the client sees can answer with a promise.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The page.
 */
export const toolsList: McpMethod = (ctx, request) => {
  const modern = request.envelope.era === "modern";
  const tasks = becomesTask(request.envelope);
  const shape = shapeOf(request.envelope.protocolVersion);
  const base = modern ? (tasks ? "mcp:tools:tasks" : "mcp:tools") : `mcp:tools:2025:${shape}`;
  // A caller sees only the tools its scopes allow; such lists are cached per scope set, privately.
  const visible = scoping.visibleTools(registryOf(ctx.core), request.host.auth, base);
  return listReply(
    ctx,
    request,
    visible.key,
    "tools",
    () => {
      const listed = visible.tools().filter((tool) => modern || tool.longRunning?.taskSupport !== "required");
      // A task-only tool answers such a client -32021, never a promise.
      const promises = !tasks &&
        listed.some((tool) =>
          !isRedeem(tool) && tool.longRunning !== undefined && tool.longRunning.taskSupport !== "required"
        );
      return listed.filter((tool) => promises || !isRedeem(tool))
        .map((tool) => toolDescriptorFor(describeTool(tool, false), shape));
    },
    visible.private,
  );
};

/** Whether a tool is the `redeem` system tool (MCP-lite spec v0.042 §3.6). */
function isRedeem(tool: AnyTool): boolean {
  return tool.name === REDEEM_TOOL && tool.category === "system";
}

/**
 * Calls a tool. On 2026-07-28 the `Mcp-Param-*` headers are checked against the arguments first, and
 * the call runs in an input round (its `inputResponses` answer the handler's questions; its
 * `requestState` is checked first). A tool whose `taskSupport` is `"required"` is refused (-32021)
 * before it runs unless the request declared the tasks extension. Invalid arguments become an
 * `isError` result naming the paths, as MCP wants, so that the model can correct itself; a streaming
 * tool's partials go out as `notifications/partial` to a request that asked for them (see
 * {@link sinkFor}), never as progress, which stays the tool's own.
 * A promise becomes a task for a request that declared the tasks extension; for any other client the
 * call waits for the work (up to `holdMs`, see `hold.ts`), so that the result obeys the tool's output
 * schema.
 *
 * @param ctx The binding.
 * @param request The request.
 * @param channel The channel to the client.
 * @returns The result.
 * @throws {ProtocolError} `invalid_params` for a malformed call, `header_mismatch` for a bad
 *   `Mcp-Param-*` header, `missing_capability` for a task-only tool without the extension.
 */
export const toolsCall: McpMethod = /* @__PURE__ */ ownLayer((ctx, request, channel) => {
  const { name, arguments: args } = request.rpc.params;
  if (typeof name !== "string") {
    throw new ProtocolError("invalid_params", "Invalid params: name must be a string");
  }
  if (args !== undefined && !isObject(args)) {
    throw new ProtocolError("invalid_params", "Invalid params: arguments must be an object");
  }
  const input = args ?? {}; // the conformance suite calls no-argument tools without `arguments`
  const registry = registryOf(ctx.core);
  const tool = registry.get(name);
  const modern = request.envelope.era === "modern";
  if (tool !== undefined && modern) checkParamHeaders(paramHeadersOf(tool), input, request.headers);
  if (tool?.longRunning?.taskSupport === "required" && !declaresTasks(request.envelope.clientCapabilities)) {
    throw tasksRequired(`Tool ${name}`);
  }
  const sink = sinkFor(ctx, request, channel);
  // `callNow`, not `runCall`: a synchronous tool answers at once, and so can the carrier (no promise).
  let outcome: CallOutcome | Promise<CallOutcome>;
  try {
    outcome = callNow(registry, {
      name,
      arguments: input,
      meta: callMetaOf(request),
      signal: channel,
      sink,
      round: roundOf(request),
      onPartial: sink?.partial,
      host: request.host,
    });
  } catch (error) {
    return invalidArgumentsResult(error);
  }
  return outcome instanceof Promise
    ? outcome.then((settled) => callResult(ctx, request, channel, sink, settled), invalidArgumentsResult)
    : callResult(ctx, request, channel, sink, outcome);
});

/** Invalid arguments become an `isError` result naming the paths, so that the model can correct itself. */
function invalidArgumentsResult(error: unknown): Record<string, unknown> {
  if (answersAsToolResult(error)) {
    // The code travels in `_meta`, so that the client's error and both spans name it `invalid_arguments`.
    return { ...failureResult(error.message), _meta: { [RESULT_ERROR_CODE]: error.code } };
  }
  throw error;
}

/** The revision's result for a call's outcome. */
function callResult(
  ctx: McpContext,
  request: McpRequest,
  channel: Channel,
  sink: McpSink | undefined,
  outcome: CallOutcome,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const shape = shapeOf(request.envelope.protocolVersion);
  switch (outcome.kind) {
    case "answer":
    case "failure":
      return toolResultFor(outcome.result, shape) as unknown as Record<string, unknown>;
    case "promise":
      // A client that declared tasks gets one; MCP has no promise result for the others: they wait.
      if (becomesTask(request.envelope)) return createTaskResult(ctx, outcome);
      return holdPromise(ctx, request, channel, sink, outcome).then((held) =>
        toolResultFor(held, shape) as unknown as Record<string, unknown>
      );
    case "input_required": // only the 2026-07-28 revision carries a round; the 2025 ones ask over the stream
      return inputRequiredResult(outcome);
    default:
      return assertNever(outcome);
  }
}
