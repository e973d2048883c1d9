/**
 * The prompt and resource methods of the `mcplite.MCPLite` service (the README's extension of MCP-lite spec v0.042 §8.1,
 * and this SDK's extension E4): each runs inside the request middleware, as its MCP method does, and is UNIMPLEMENTED
 * on a server that defines none.
 *
 * @module
 */
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { JsonObject } from "@bufbuild/protobuf";
import { type Registry, runRequest } from "../../core/mod.ts";
import type { PromptRequest, PromptsList, ResourceRequest } from "../../gen/mcplite/mcplite_pb.ts";
import { litePrompts } from "../prompt-feature.ts";
import { liteResources } from "../resource-feature.ts";
import {
  type PromptResponseInit,
  promptsList,
  type ResourceResponseInit,
  responseFromOutcome,
  structOf,
  toJsonObject,
} from "./envelope.ts";
import { HOST_KEY } from "./host-key.ts";
import { asConnectErrors } from "./status.ts";

/**
 * Answers `GetPrompts` (the README's extension of MCP-lite spec v0.042 §8.1) inside the request middleware,
 * as `prompts/list`: the prompts the caller may get. UNIMPLEMENTED on a server that defines none.
 */
export function getPrompts(registry: Registry, context: HandlerContext): Promise<PromptsList> {
  const prompts = litePrompts(registry) ?? noPrompts();
  return asConnectErrors(
    () =>
      runRequest(registry, listingOf("prompts/list", context), (ctx) => promptsList(prompts.list(registry, ctx.auth))),
    reporter(registry),
  );
}

/**
 * Answers `GetPrompt`: the rendered prompt (MCP's `GetPromptResult` as `result`), or an input round
 * (`meta` as `CallTool`'s, `request_state` and `input_responses` as on `ToolRequest`).
 */
export function getPrompt(
  registry: Registry,
  version: string,
  request: PromptRequest,
  context: HandlerContext,
): Promise<PromptResponseInit> {
  return answered(registry, version, () => {
    const prompts = litePrompts(registry) ?? noPrompts();
    const args = structOf(request.arguments) ?? {};
    return prompts.render(
      registry,
      request.name,
      args,
      roundOf({ name: request.name, arguments: args }, request, context),
    );
  });
}

/**
 * Answers `GetResources` or `GetResourceTemplates` (this SDK's MCP-lite extension E4) inside the request middleware,
 * as `resources/list` or `resources/templates/list`: what the caller may read, each MCP's descriptor as a
 * `Struct`. UNIMPLEMENTED on a server that defines no resource.
 */
export function listResources(
  registry: Registry,
  context: HandlerContext,
  templates: boolean,
): Promise<JsonObject[]> {
  const resources = liteResources(registry) ?? noResources();
  const method = templates ? "resources/templates/list" : "resources/list";
  return asConnectErrors(
    () =>
      runRequest(registry, listingOf(method, context), (ctx) => {
        return resources.list(registry, ctx.auth, templates).map((d) => toJsonObject(d));
      }),
    reporter(registry),
  );
}

/**
 * Answers `ReadResource`: MCP's `ReadResourceResult` as `result`, or an input round (`meta` as
 * `CallTool`'s, `request_state` and `input_responses` as on `ToolRequest`).
 */
export function readResource(
  registry: Registry,
  version: string,
  request: ResourceRequest,
  context: HandlerContext,
): Promise<ResourceResponseInit> {
  return answered(registry, version, () => {
    const resources = liteResources(registry) ?? noResources();
    return resources.read(registry, request.uri, roundOf({ uri: request.uri }, request, context));
  });
}

/** Where a method's masked failures go: the server's `onError`. */
function reporter(registry: Registry): (error: unknown) => unknown {
  return (error) => registry.runtime.onError?.(error);
}

/**
 * A prompt's rendering or a resource's read, timed from here, as its response: the value as `result`, or the
 * input round's `meta`; its failures as Connect's, masked ones reported.
 */
function answered(
  registry: Registry,
  version: string,
  answer: () => Promise<
    { readonly asked: true; readonly outcome: Parameters<typeof responseFromOutcome>[0] } | {
      readonly asked?: false;
      readonly value: object;
    }
  >,
): Promise<{ result: JsonObject; meta?: ReturnType<typeof responseFromOutcome>["meta"] }> {
  const started = performance.now();
  return asConnectErrors(async () => {
    const done = await answer();
    if (done.asked) return { result: {}, meta: responseFromOutcome(done.outcome, started, version).meta };
    return { result: toJsonObject(done.value) };
  }, reporter(registry));
}

/** A listing method's request, as the request middleware sees it. */
function listingOf(method: string, context: HandlerContext) {
  const meta = { wire: "grpc", headers: context.requestHeader } as const;
  return { method, params: {}, meta, signal: context.signal, host: context.values.get(HOST_KEY) };
}

/** A prompt's or resource's request with its input round (`request_state`, `input_responses`, as on `ToolRequest`). */
function roundOf(
  params: Record<string, unknown>,
  request: PromptRequest | ResourceRequest,
  context: HandlerContext,
) {
  return {
    params,
    meta: { wire: "grpc", headers: context.requestHeader } as const,
    signal: context.signal,
    round: {
      inputResponses: structOf(request.inputResponses),
      requestState: request.requestState === "" ? undefined : request.requestState,
    },
    host: context.values.get(HOST_KEY),
  };
}

/** The refusal of a resources method on a server that defines no resource. */
function noResources(): never {
  throw new ConnectError("this server defines no resources", Code.Unimplemented);
}

/** The refusal of a prompts method on a server that defines no prompt. */
function noPrompts(): never {
  throw new ConnectError("this server defines no prompts", Code.Unimplemented);
}
