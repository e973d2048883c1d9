// HOT PATH: every unary `CallTool` answer on the direct gRPC path.
/**
 * Serialises a `ToolResponse` init to protobuf binary without building the message: the bytes `toBinary()` gives
 * for `create(ToolResponseSchema, response)`, without its reflection over `google.protobuf.Struct` (most of its cost).
 * Protobuf-es's order (Protocol Buffers Encoding): field numbers ascending, proto3 defaults left out, map entries in
 * insertion order. One pass measures each length-delimited record, a second writes one buffer of the exact size: the
 * gRPC Length-Prefixed-Message (gRPC over HTTP/2), its {@link ENVELOPE_ROOM}-byte prefix, then the message.
 *
 * @module
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { utf8Length } from "../../internal/utf8-length.ts";
import type { ToolResponseInit } from "./envelope.ts";

/**
 * The bytes in front of the message, in the same buffer: a gRPC envelope's flags byte and big-endian
 * length (`byteOffset` of {@link toolResponseBinary}'s result).
 */
export const ENVELOPE_ROOM = 5;

/**
 * Encodes a `ToolResponse`.
 *
 * @param response A response from `responseFromOutcome`.
 * @returns The message's bytes, {@link ENVELOPE_ROOM} bytes into a buffer of its own.
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
  return toolResponseFrame(response).subarray(ENVELOPE_ROOM);
}

/**
 * Encodes a `ToolResponse` as a whole gRPC Length-Prefixed-Message (gRPC over HTTP/2 protocol): flags 0,
 * the message's length (big-endian uint32), then the message, in one buffer and no view of it (on
 * Bun a `subarray` or a read of `.buffer` makes the engine copy a small array out of its heap).
 *
 * @param response A response from `responseFromOutcome`.
 * @param allocate Makes the buffer, zero-filled (a `Buffer`, for a `node:stream` write).
 * @returns The frame.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolResponseBinary, toolResponseFrame } from "./tool-response-binary.ts";
 * const response = { result: { content: [{ type: "text", text: "hi" }] }, meta: { serverVersion: "1.0.0" } };
 * const message = toolResponseBinary(response);
 * assert.deepEqual(toolResponseFrame(response), new Uint8Array([0, 0, 0, 0, message.byteLength, ...message]));
 * ```
 */
export function toolResponseFrame(
  response: ToolResponseInit,
  allocate: (size: number) => Uint8Array = newBytes,
): Uint8Array {
  const sizes: number[] = [];
  let size = 0;
  const result = response.result as JsonObject | undefined;
  if (result !== undefined) {
    const at = sizes.push(0) - 1;
    size += record(sizes[at] = sizeStruct(result, sizes));
  }
  const m = response.meta;
  let metaSize = 0;
  if (m !== undefined) {
    if (m.responseType) metaSize += 1 + sizeInt(m.responseType);
    if (m.promiseToken) metaSize += stringRecord(m.promiseToken);
    if (m.timestamp) metaSize += 1 + sizeInt(m.timestamp);
    if (m.processingTimeMs) metaSize += 1 + sizeInt(m.processingTimeMs);
    if (m.serverVersion) metaSize += stringRecord(m.serverVersion);
    if (m.requestState) metaSize += stringRecord(m.requestState);
    if (m.inputRequests !== undefined) {
      const at = sizes.push(0) - 1;
      metaSize += record(sizes[at] = sizeStruct(m.inputRequests as JsonObject, sizes));
    }
    if (m.retryAfterMs) metaSize += 1 + sizeInt(m.retryAfterMs);
    if (m.expiresAt) metaSize += 1 + sizeInt(m.expiresAt);
    if (m.estimatedCompletion) metaSize += 1 + sizeInt(m.estimatedCompletion);
    size += record(metaSize);
  }
  const w = new Writer(allocate(ENVELOPE_ROOM + size), sizes);
  // The prefix: flags 0 (not compressed), then the length.
  w.bytes[1] = size >>> 24;
  w.bytes[2] = (size >>> 16) & 0xff;
  w.bytes[3] = (size >>> 8) & 0xff;
  w.bytes[4] = size & 0xff;
  if (result !== undefined) w.struct(0x0a, result);
  if (m !== undefined) {
    w.byte(0x12).varint(metaSize);
    if (m.responseType) w.byte(0x08).int(m.responseType);
    if (m.promiseToken) w.string(0x12, m.promiseToken);
    if (m.timestamp) w.byte(0x18).int(m.timestamp);
    if (m.processingTimeMs) w.byte(0x20).int(m.processingTimeMs);
    if (m.serverVersion) w.string(0x2a, m.serverVersion);
    if (m.requestState) w.string(0x32, m.requestState);
    if (m.inputRequests !== undefined) w.struct(0x3a, m.inputRequests as JsonObject);
    if (m.retryAfterMs) w.byte(0x40).int(m.retryAfterMs);
    if (m.expiresAt) w.byte(0x48).int(m.expiresAt);
    if (m.estimatedCompletion) w.byte(0x50).int(m.estimatedCompletion);
  }
  return w.bytes;
}

/** The size of a length-delimited record's tag (one byte here), length and body. */
function record(size: number): number {
  return 1 + sizeVarint(size) + size;
}

function stringRecord(text: string): number {
  return record(utf8Length(text));
}

/**
 * The size of a `google.protobuf.Struct` (`map<string, Value> fields = 1`); pushes the size of each
 * entry and of its `Value`, in the order the writer meets them.
 */
function sizeStruct(object: JsonObject, sizes: number[]): number {
  let size = 0;
  for (const key in object) {
    const entryAt = sizes.push(0) - 1;
    const valueAt = sizes.push(0) - 1;
    const entry = stringRecord(key) + record(sizes[valueAt] = sizeValue(object[key], sizes));
    size += record(sizes[entryAt] = entry);
  }
  return size;
}

/** `google.protobuf.Value`: one of null (1), number (2), string (3), bool (4), struct (5), list (6). */
function sizeValue(json: JsonValue, sizes: number[]): number {
  if (json === null) return 2;
  switch (typeof json) {
    case "number":
      return 9;
    case "string":
      return stringRecord(json);
    case "boolean":
      return 2;
  }
  const at = sizes.push(0) - 1;
  let size = 0;
  if (Array.isArray(json)) {
    // ListValue: repeated Value values = 1
    for (const item of json) {
      const itemAt = sizes.push(0) - 1;
      size += record(sizes[itemAt] = sizeValue(item, sizes));
    }
  } else size = sizeStruct(json as JsonObject, sizes);
  return record(sizes[at] = size);
}

function sizeVarint(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

/** An `int32` or `int64` field: negative values take ten bytes (two's complement, as protobuf writes them). */
function sizeInt(value: number | bigint): number {
  const n = Number(value);
  if (n < 0) return 10;
  return Number.isSafeInteger(n) ? sizeVarint(n) : sizeBigVarint(BigInt(value));
}

function sizeBigVarint(value: bigint): number {
  let size = 1;
  for (let v = BigInt.asUintN(64, value); v >= 0x80n; v >>= 7n) size++;
  return size;
}

const encoder = new TextEncoder();

function newBytes(size: number): Uint8Array {
  return new Uint8Array(size);
}

/** A `double` is written through this scratch (little-endian, as the wire wants, where the platform is). */
const DOUBLE = new Float64Array(1);
const DOUBLE_BYTES = new Uint8Array(DOUBLE.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Writes into a buffer of the size measured, taking the record sizes in the order they were measured. */
class Writer {
  readonly bytes: Uint8Array;
  readonly #sizes: number[];
  at = ENVELOPE_ROOM;
  #next = 0;

  constructor(bytes: Uint8Array, sizes: number[]) {
    this.bytes = bytes;
    this.#sizes = sizes;
  }

  byte(value: number): this {
    this.bytes[this.at++] = value;
    return this;
  }

  varint(value: number): this {
    const bytes = this.bytes;
    while (value >= 0x80) {
      bytes[this.at++] = (value % 128) | 0x80;
      value = Math.floor(value / 128);
    }
    bytes[this.at++] = value;
    return this;
  }

  int(value: number | bigint): this {
    const n = Number(value);
    if (n >= 0 && Number.isSafeInteger(n)) return this.varint(n);
    let v = BigInt.asUintN(64, BigInt(value));
    for (; v >= 0x80n; v >>= 7n) this.bytes[this.at++] = Number(v & 0x7fn) | 0x80;
    this.bytes[this.at++] = Number(v);
    return this;
  }

  double(value: number): void {
    DOUBLE[0] = value;
    const bytes = this.bytes;
    if (LITTLE_ENDIAN) bytes.set(DOUBLE_BYTES, this.at);
    else for (let i = 0; i < 8; i++) bytes[this.at + i] = DOUBLE_BYTES[7 - i];
    this.at += 8;
  }

  string(tag: number, text: string): this {
    const length = utf8Length(text);
    this.byte(tag).varint(length);
    const bytes = this.bytes;
    if (length === text.length) {
      for (let i = 0; i < length; i++) bytes[this.at + i] = text.charCodeAt(i);
    } else encoder.encodeInto(text, bytes.subarray(this.at, this.at + length));
    this.at += length;
    return this;
  }

  /** A `Struct` record under `tag`. */
  struct(tag: number, object: JsonObject): void {
    this.byte(tag).varint(this.#sizes[this.#next++]);
    this.fields(object);
  }

  /** A `Struct`'s entries. */
  fields(object: JsonObject): void {
    for (const key in object) {
      this.byte(0x0a).varint(this.#sizes[this.#next++]);
      this.string(0x0a, key);
      this.byte(0x12).varint(this.#sizes[this.#next++]);
      this.value(object[key]);
    }
  }

  value(json: JsonValue): void {
    if (json === null) {
      this.byte(0x08).byte(0);
      return;
    }
    switch (typeof json) {
      case "number":
        this.byte(0x11).double(json);
        return;
      case "string":
        this.string(0x1a, json);
        return;
      case "boolean":
        this.byte(0x20).byte(json ? 1 : 0);
        return;
    }
    if (Array.isArray(json)) {
      this.byte(0x32).varint(this.#sizes[this.#next++]);
      for (const item of json) {
        this.byte(0x0a).varint(this.#sizes[this.#next++]);
        this.value(item);
      }
    } else this.struct(0x2a, json as JsonObject);
  }
}
