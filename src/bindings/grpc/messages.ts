/**
 * The `mcplite.MCPLite` service and its messages (proto/mcplite/mcplite.proto, MCP-lite spec v0.042 §5), as
 * `@mcplite/sdk/grpc` exports them for Connect clients: `createClient(MCPLite, transport)`.
 *
 * protoc-gen-es writes them to src/gen/, in terms of Protobuf-ES types (`Message`, `GenMessage`,
 * `GenService`) that @bufbuild/protobuf documents; the generated file cannot say so to `deno doc --lint`,
 * so the public names are declared here, each the generated value or type itself.
 *
 * @module
 */
/** @ignore */
import * as gen from "../../gen/mcplite/mcplite_pb.ts";

/**
 * The `mcplite.MCPLite` service descriptor: `GetTools`, `CallTool` and `CallToolStream`. Promises are
 * redeemed by calling the `redeem` tool through `CallTool`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MCPLite } from "./messages.ts";
 * assert.equal(MCPLite.typeName, "mcplite.MCPLite");
 * assert.equal(MCPLite.method.callToolStream.methodKind, "server_streaming");
 * ```
 */
export const MCPLite: typeof gen.MCPLite = gen.MCPLite;

/** The tools a server serves (`GetTools`' answer), in registration order, each with its JSON Schema. */
export type ToolsList = gen.ToolsList;
/** Describes `mcplite.ToolsList`: `create(ToolsListSchema)` makes one, `toJson` and `fromJson` convert it. */
export const ToolsListSchema: typeof gen.ToolsListSchema = gen.ToolsListSchema;

/** A tool call: the tool's name (`redeem` to redeem a promise token) and its arguments. */
export type ToolRequest = gen.ToolRequest;
/** Describes `mcplite.ToolRequest`: `create(ToolRequestSchema, { name, arguments })` makes one. */
export const ToolRequestSchema: typeof gen.ToolRequestSchema = gen.ToolRequestSchema;

/** A tool's answer, or one partial of a stream (a partial has no `meta`). */
export type ToolResponse = gen.ToolResponse;
/** Describes `mcplite.ToolResponse`. */
export const ToolResponseSchema: typeof gen.ToolResponseSchema = gen.ToolResponseSchema;

/** The meta block of a complete response (MCP-lite `_meta`): its response type and what goes with it. */
export type ResponseMeta = gen.ResponseMeta;

/**
 * The response types of MCP-lite §3.3 (`ANSWER`, `PROMISE`, `ELICITATION`, `FAILURE`,
 * `REQUEST_FOR_MORE_RESOURCE`), with the spec's names and numbers.
 */
export const ResponseType: typeof gen.ResponseType = gen.ResponseType;
/** One of the {@link ResponseType} numbers (or a number this version does not know). */
export type ResponseType = gen.ResponseType;
