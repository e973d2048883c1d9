/**
 * A request body from the arguments, per the media type and the Encoding Object of each property
 * (OpenAPI 3.1.0 §4.8.15): JSON; `application/x-www-form-urlencoded` (§4.8.14.4), each property by its
 * `style`, `explode` and `allowReserved` when the document gives them, else by its `contentType`
 * (an object as JSON text, as the specification's example does); `multipart/form-data` (§4.8.14.5),
 * one part per property (one per item of an array) with its `Content-Type`, or the pairs of its style.
 *
 * @module
 */
import { isObject } from "../../internal/is-object.ts";
import { type DeepObjectArrays, scalarText, styledPairs, type Styling } from "./serialize.ts";

/**
 * An Encoding Object (OpenAPI 3.1.0 §4.8.15.1) as a call uses it: how one property of a form or
 * multipart body is sent, resolved once when the document is imported ({@link propertyEncoding}).
 */
export interface PropertyEncoding {
  /** The property's media type (multipart: the part's `Content-Type`). */
  readonly contentType?: string;
  /**
   * Its style, explode and allowReserved, defaulted, when the Encoding Object sets any of them (then
   * `contentType` is ignored, §4.8.15.1).
   */
  readonly styling?: Styling;
}

/** The body to send, and its `Content-Type` (a multipart one names its boundary). */
export interface EncodedBody {
  /** The bytes (as text). */
  readonly body: string;
  /** The `Content-Type` header. */
  readonly contentType: string;
}

const FORM = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";

/**
 * Encodes a body.
 *
 * @param mediaType The request body's media type.
 * @param payload The body's value.
 * @param encoding The Encoding Objects, by property name.
 * @param arrays How `deepObject` writes arrays.
 * @returns The body and its `Content-Type`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeBody, propertyEncoding } from "./request-body.ts";
 * const encoding = { metadata: propertyEncoding({ style: "deepObject", explode: true }) };
 * const { body } = encodeBody("application/x-www-form-urlencoded", { email: "a@b.c", metadata: { k: "v" } }, encoding, "indexed");
 * assert.equal(body, "email=a%40b.c&metadata%5Bk%5D=v");
 * ```
 */
export function encodeBody(
  mediaType: string,
  payload: unknown,
  encoding: Readonly<Record<string, PropertyEncoding>>,
  arrays: DeepObjectArrays,
): EncodedBody {
  const type = mediaType.split(";", 1)[0].trim().toLowerCase();
  if (isJsonMediaType(type)) return { body: JSON.stringify(payload), contentType: mediaType };
  if (type === FORM && isObject(payload)) {
    const pairs = Object.entries(payload).flatMap(([name, value]) =>
      value === undefined ? [] : formPairs(name, value, encoding[name], arrays)
    );
    return { body: pairs.join("&"), contentType: mediaType };
  }
  if (type === MULTIPART && isObject(payload)) return multipart(payload, encoding, arrays);
  return { body: typeof payload === "string" ? payload : JSON.stringify(payload), contentType: mediaType };
}

/**
 * Resolves an Encoding Object: its members checked, and its styling (when it sets `style`, `explode` or
 * `allowReserved`) defaulted once, `explode` by its style (OpenAPI 3.1.0 §4.8.15.1).
 *
 * @param encoding The Encoding Object, as the document gives it.
 * @returns What a call uses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { propertyEncoding } from "./request-body.ts";
 * assert.deepEqual(propertyEncoding({ contentType: "application/json" }), { contentType: "application/json" });
 * assert.equal(propertyEncoding({ style: "deepObject" }).styling?.explode, false);
 * ```
 */
export function propertyEncoding(encoding: Record<string, unknown>): PropertyEncoding {
  const contentType = typeof encoding.contentType === "string" ? encoding.contentType : undefined;
  const style = typeof encoding.style === "string" ? encoding.style : undefined;
  const explode = typeof encoding.explode === "boolean" ? encoding.explode : undefined;
  const allowReserved = typeof encoding.allowReserved === "boolean" ? encoding.allowReserved : undefined;
  if (style === undefined && explode === undefined && allowReserved === undefined) return { contentType };
  const styled = style ?? "form";
  return {
    contentType,
    styling: {
      style: styled,
      explode: explode ?? styled === "form",
      allowReserved: allowReserved ?? false,
      encodeDelimiters: true,
    },
  };
}

/** A form property the document gives no style: `form`, exploded. */
const FORM_STYLING: Styling = { style: "form", explode: true, allowReserved: false, encodeDelimiters: true };

function formPairs(
  name: string,
  value: unknown,
  encoding: PropertyEncoding | undefined,
  arrays: DeepObjectArrays,
): string[] {
  if (encoding?.styling !== undefined) return styledPairs(name, value, encoding.styling, arrays);
  // No style given: the property's content type, by default JSON for an object (§4.8.15.1 `contentType`).
  const json = encoding?.contentType !== undefined ? isJsonMediaType(encoding.contentType) : isObject(value);
  if (json) return [`${encodeURIComponent(name)}=${encodeURIComponent(JSON.stringify(value))}`];
  return styledPairs(name, value, FORM_STYLING, arrays);
}

interface Part {
  readonly name: string;
  readonly text: string;
  readonly contentType: string | undefined;
}

function multipart(
  payload: Record<string, unknown>,
  encoding: Readonly<Record<string, PropertyEncoding>>,
  arrays: DeepObjectArrays,
): EncodedBody {
  const parts: Part[] = [];
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined) continue;
    const own = encoding[name];
    if (own?.styling !== undefined) {
      // A styled property is sent as the form fields its style gives, each a part of its own.
      for (const pair of styledPairs(name, value, own.styling, arrays)) {
        const at = pair.indexOf("=");
        parts.push({ name: decode(pair.slice(0, at)), text: decode(pair.slice(at + 1)), contentType: undefined });
      }
      continue;
    }
    // An array is one part per item (OpenAPI 3.1.0 §4.8.14.5); each part its content type.
    for (const item of Array.isArray(value) ? value : [value]) {
      const contentType = own?.contentType ?? (isObject(item) || Array.isArray(item) ? "application/json" : undefined);
      const text = contentType !== undefined && isJsonMediaType(contentType) ? JSON.stringify(item) : scalarText(item);
      parts.push({ name, text, contentType });
    }
  }
  const boundary = `mcplite-${crypto.randomUUID()}`;
  const quote = (text: string) => text.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
  const body = parts.map((part) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.name)}"\r\n` +
    (part.contentType === undefined ? "" : `Content-Type: ${part.contentType}\r\n`) + `\r\n${part.text}\r\n`
  ).join("") + `--${boundary}--\r\n`;
  return { body, contentType: `${MULTIPART}; boundary=${boundary}` };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Tells whether a media type is JSON (`application/json`, or any `+json` suffix, RFC 6839 §3.1).
 *
 * @param mediaType The media type, perhaps with parameters.
 * @returns `true` for JSON.
 */
export function isJsonMediaType(mediaType: string): boolean {
  const type = mediaType.split(";", 1)[0].trim().toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}
