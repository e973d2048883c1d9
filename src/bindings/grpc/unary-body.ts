// HOT PATH: the request body of every unary call on the direct paths.
/**
 * A unary call's request message, read through the server's body reader and refused with Connect's
 * errors: length-prefixed envelopes (gRPC over HTTP/2 protocol, Length-Prefixed-Message; gRPC-Web alike),
 * or a Connect unary body, the message itself (Connect protocol, Unary-Request).
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { Code, ConnectError } from "@connectrpc/connect";
import { compressedFlag, type Compression } from "@connectrpc/connect/protocol";
import type { BodyCheck } from "../../server/mod.ts";
import { errorToConnectError } from "./status.ts";

/** What a body is read from: a call on a direct path, or a request Connect's handler serves. */
export interface BodySource {
  /**
   * Reads the whole body within `maxBodyBytes` and the server's `bodyTimeoutMs`: at once where the
   * runtime already holds it; it may then throw synchronously.
   */
  read(maxBodyBytes: number, check?: BodyCheck): Uint8Array | Promise<Uint8Array>;
}

/** The length prefix of an envelope: a flags byte and a big-endian uint32. */
const PREFIX = 5;

/**
 * Reads a body of envelopes: each one's declared length within `readMaxBytes` (refused as soon as its
 * prefix arrives, with Connect's message). A body later than the server's `bodyTimeoutMs` is refused
 * with DEADLINE_EXCEEDED. A body longer than two envelopes can be has a second message,
 * which Connect refuses on a unary method: it is refused as Connect does once that much has arrived.
 *
 * @param source The body.
 * @param readMaxBytes The largest message.
 * @returns The body's bytes.
 */
export async function readEnvelopes(source: BodySource, readMaxBytes: number): Promise<Uint8Array> {
  try {
    return await source.read(envelopesMaxBytes(readMaxBytes), envelopeCheck(readMaxBytes));
  } catch (error) {
    throw refusedEnvelopes(error);
  }
}

/** The most a unary body of envelopes may hold: two envelopes (the second one refused). */
export function envelopesMaxBytes(readMaxBytes: number): number {
  return 2 * (PREFIX + readMaxBytes);
}

/** Checks each envelope's prefix as it arrives ({@link checkPrefixes}). */
export function envelopeCheck(readMaxBytes: number): BodyCheck {
  let checked = 0; // bytes whose envelope prefixes were checked
  return (chunks, size) => checked = checkPrefixes(chunks, size, checked, readMaxBytes);
}

/** What a read of envelopes that failed answers: a body past two envelopes has a second message. */
export function refusedEnvelopes(error: unknown): unknown {
  return isTooLarge(error) ? extraMessage() : errorToConnectError(error);
}

/**
 * Reads a gRPC unary call's one message: its envelopes ({@link readEnvelopes}), exactly one in all,
 * decompressed with the negotiated codec. No promise where the body is already held and the message is
 * not compressed; it may then throw synchronously.
 *
 * @param source The body.
 * @param readMaxBytes The largest message.
 * @param compression The request's codec, if negotiated.
 * @returns The message's bytes, or a promise of them.
 */
export function readEnvelopedMessage(
  source: BodySource,
  readMaxBytes: number,
  compression: Compression | null,
): Uint8Array | Promise<Uint8Array> {
  let body: Uint8Array | Promise<Uint8Array>; // readEnvelopes, inline: one promise fewer on every call
  try {
    body = source.read(envelopesMaxBytes(readMaxBytes), envelopeCheck(readMaxBytes));
  } catch (error) {
    throw refusedEnvelopes(error);
  }
  const open = (bytes: Uint8Array) => openEnvelope(bytes, readMaxBytes, compression);
  return body instanceof Promise
    ? body.then(open, (error: unknown) => {
      throw refusedEnvelopes(error);
    })
    : open(body);
}

/**
 * The one message of a unary call's body of envelopes, decompressed: for a body read whole with
 * {@link envelopesMaxBytes} and {@link envelopeCheck} (failures answered by {@link refusedEnvelopes}).
 * It may throw synchronously.
 *
 * @param body The whole body.
 * @param readMaxBytes The largest message.
 * @param compression The request's codec, if negotiated.
 * @returns The message's bytes, or a promise of them (a compressed message).
 */
export function openEnvelope(
  body: Uint8Array,
  readMaxBytes: number,
  compression: Compression | null,
): Uint8Array | Promise<Uint8Array> {
  if (body.byteLength === 0) {
    throw new ConnectError("protocol error: missing input message for unary method", Code.Unimplemented);
  }
  if (body.byteLength < PREFIX) throw incomplete();
  // Read from the bytes, not through a DataView of `body.buffer` (on Bun, reading `.buffer` of a small
  // array copies it out of the engine's heap).
  const flags = body[0];
  const end = PREFIX + uint32(body, 1);
  if (end > body.byteLength) throw incomplete();
  if (end < body.byteLength) {
    // Connect reads the next envelope whole before it refuses a second message.
    if (body.byteLength - end < PREFIX || end + PREFIX + uint32(body, end + 1) > body.byteLength) throw incomplete();
    throw extraMessage();
  }
  const data = body.subarray(PREFIX, end);
  if ((flags & compressedFlag) !== compressedFlag) return data;
  if (compression === null) {
    throw new ConnectError("received compressed envelope, but do not know how to decompress", Code.Internal);
  }
  return compression.decompress(data, readMaxBytes);
}

/**
 * Reads a Connect unary body, the message itself, within `readMaxBytes`, refused with Connect's
 * messages. A `Content-Length` spelt as a plain number is trusted (HTTP servers hold a body to it); any
 * other spelling is checked against the bytes as Connect's reader checks it. No promise where the body
 * is already held; it may then throw synchronously.
 *
 * @param source The body.
 * @param readMaxBytes The largest message.
 * @param declared The request's `Content-Length`.
 * @returns The message's bytes, or a promise of them.
 */
export function readUnenveloped(
  source: BodySource,
  readMaxBytes: number,
  declared: string | null,
): Uint8Array | Promise<Uint8Array> {
  // Connect reads the length as parseInt does (readAllBytes' length hint).
  const hint = declared === null ? NaN : parseInt(declared, 10);
  const refused = (error: unknown): never => {
    if (!isTooLarge(error)) throw errorToConnectError(error);
    const size = Number.isSafeInteger(hint) && hint > readMaxBytes ? ` ${hint}` : "";
    throw new ConnectError(
      `message size${size} is larger than configured readMaxBytes ${readMaxBytes}`,
      Code.ResourceExhausted,
    );
  };
  const checked = (bytes: Uint8Array) => {
    if (declared === null || String(hint) === declared || !Number.isSafeInteger(hint) || hint < 0) return bytes;
    if (hint !== bytes.byteLength) {
      throw new ConnectError(
        `protocol error: promised ${hint} bytes, received ${bytes.byteLength}`,
        Code.InvalidArgument,
      );
    }
    return bytes;
  };
  let bytes: Uint8Array | Promise<Uint8Array>;
  try {
    bytes = source.read(readMaxBytes);
  } catch (error) {
    return refused(error);
  }
  return bytes instanceof Promise ? bytes.then(checked, refused) : checked(bytes);
}

function isTooLarge(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === "payload_too_large";
}

function incomplete(): ConnectError {
  return new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
}

function extraMessage(): ConnectError {
  return new ConnectError("protocol error: received extra input message for unary method", Code.Unimplemented);
}

/**
 * Checks the length prefix of every envelope that has begun since `from` (a message longer than the
 * limit is refused before it arrives, with Connect's message) and returns where the next one starts.
 */
function checkPrefixes(chunks: readonly Uint8Array[], size: number, from: number, readMaxBytes: number): number {
  let at = from;
  while (at + PREFIX <= size) {
    const length = uint32At(chunks, at + 1);
    if (length > readMaxBytes) {
      throw new ConnectError(
        `message size ${length} is larger than configured readMaxBytes ${readMaxBytes}`,
        Code.ResourceExhausted,
      );
    }
    at += PREFIX + length;
  }
  return at;
}

/** A big-endian uint32 at `offset` of `bytes` (which holds all four bytes). */
function uint32(bytes: Uint8Array, offset: number): number {
  return bytes[offset] * 0x1000000 + ((bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]);
}

/** Reads a big-endian uint32 at `offset` of the concatenated chunks. */
function uint32At(chunks: readonly Uint8Array[], offset: number): number {
  let value = 0;
  for (let i = 0; i < 4; i++) value = value * 256 + byteAt(chunks, offset + i);
  return value;
}

function byteAt(chunks: readonly Uint8Array[], offset: number): number {
  for (const chunk of chunks) {
    if (offset < chunk.byteLength) return chunk[offset];
    offset -= chunk.byteLength;
  }
  return 0;
}
