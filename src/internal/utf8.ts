/**
 * The one UTF-8 encoder and the one strict UTF-8 decoder the modules share: neither keeps state from call
 * to call (no `stream` decoding here), so one of each serves every module.
 *
 * @module
 */

/** Encodes text as UTF-8 (WHATWG Encoding). */
export const utf8Encoder: TextEncoder = /* @__PURE__ */ new TextEncoder();

/** Decodes UTF-8, throwing a `TypeError` on malformed bytes (WHATWG Encoding, `fatal`). */
export const strictUtf8: TextDecoder = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });
