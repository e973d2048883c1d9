// HOT PATH: every unary `CallTool` answer on the direct gRPC path.
/**
 * Serialises a `ToolResponse` init to protobuf binary without building the message: the bytes
 * `toBinary(ToolResponseSchema, create(ToolResponseSchema, response))` gives, for a fraction of its
 * cost (reflection over `google.protobuf.Struct` is most of it). Fields go in field-number order,
 * proto3 defaults are left out, map entries in key insertion order, as protobuf-es writes them.
 *
 * @module
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import type { ToolResponseInit } from "./envelope.ts";

/**
 * Encodes a `ToolResponse`.
 *
 * @param response A response from `responseFromOutcome`.
 * @returns The message's bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { create, toBinary } from "@bufbuild/protobuf";
 * import { ToolResponseSchema } from "../../gen/mcplite/mcplite_pb.ts";
 * import { toolResponseBinary } from "./tool-response-binary.ts";
 * const response = { result: { content: [{ type: "text", text: "hi" }] }, meta: { serverVersion: "1.0.0" } };
 * assert.deepEqual(toolResponseBinary(response), toBinary(ToolResponseSchema, create(ToolResponseSchema, response)));
 * ```
 */
export function toolResponseBinary(response: ToolResponseInit): Uint8Array {
  const writer = new BinaryWriter();
  if (response.result !== undefined) struct(writer.tag(1, WireType.LengthDelimited).fork(), response.result).join();
  const m = response.meta;
  if (m !== undefined) {
    writer.tag(2, WireType.LengthDelimited).fork();
    if (m.responseType) writer.tag(1, WireType.Varint).int32(m.responseType);
    if (m.promiseToken) writer.tag(2, WireType.LengthDelimited).string(m.promiseToken);
    if (m.timestamp) writer.tag(3, WireType.Varint).int64(m.timestamp);
    if (m.processingTimeMs) writer.tag(4, WireType.Varint).int32(m.processingTimeMs);
    if (m.serverVersion) writer.tag(5, WireType.LengthDelimited).string(m.serverVersion);
    if (m.requestState) writer.tag(6, WireType.LengthDelimited).string(m.requestState);
    if (m.inputRequests !== undefined) {
      struct(writer.tag(7, WireType.LengthDelimited).fork(), m.inputRequests as JsonObject).join();
    }
    if (m.retryAfterMs) writer.tag(8, WireType.Varint).int32(m.retryAfterMs);
    if (m.expiresAt) writer.tag(9, WireType.Varint).int64(m.expiresAt);
    if (m.estimatedCompletion) writer.tag(10, WireType.Varint).int64(m.estimatedCompletion);
    writer.join();
  }
  return writer.finish();
}

/** `google.protobuf.Struct`: `map<string, Value> fields = 1`. */
function struct(writer: BinaryWriter, object: JsonObject): BinaryWriter {
  for (const key in object) {
    writer.tag(1, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string(key);
    value(writer.tag(2, WireType.LengthDelimited).fork(), object[key]).join().join();
  }
  return writer;
}

/** `google.protobuf.Value`: one of null (1), number (2), string (3), bool (4), struct (5), list (6). */
function value(writer: BinaryWriter, json: JsonValue): BinaryWriter {
  if (json === null) return writer.tag(1, WireType.Varint).int32(0);
  switch (typeof json) {
    case "number":
      return writer.tag(2, WireType.Bit64).double(json);
    case "string":
      return writer.tag(3, WireType.LengthDelimited).string(json);
    case "boolean":
      return writer.tag(4, WireType.Varint).bool(json);
  }
  if (Array.isArray(json)) {
    writer.tag(6, WireType.LengthDelimited).fork(); // ListValue: repeated Value values = 1
    for (const item of json) value(writer.tag(1, WireType.LengthDelimited).fork(), item).join();
    return writer.join();
  }
  return struct(writer.tag(5, WireType.LengthDelimited).fork(), json as JsonObject).join();
}
