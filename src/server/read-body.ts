/**
 * Reads a request body without ever holding more than the configured limit.
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../core/error.ts";

/**
 * Reads a request body as text, refusing bodies over `limit` bytes. A declared `Content-Length` over
 * the limit is refused before reading; a body with no length is read chunk by chunk and refused as
 * soon as it passes the limit.
 *
 * @param request The request.
 * @param limit The largest body accepted, in bytes.
 * @returns The body text.
 * @throws {ProtocolError} `payload_too_large`.
 */
export function readBody(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared === null) return readChunks(request, limit);
  // Not async: the common case hands back the runtime's own promise, with no extra hop.
  return Number(declared) > limit ? Promise.reject(tooLarge(limit)) : request.text();
}

async function readChunks(request: Request, limit: number): Promise<string> {
  const body = request.body;
  if (body === null) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(all);
}

const decoder = new TextDecoder();

function tooLarge(limit: number): ProtocolError {
  return new ProtocolError(ErrorCode.PayloadTooLarge, `Request body exceeds the limit of ${limit} bytes`, {
    data: { limit },
  });
}
