/**
 * Icons (MCP 2025-11-25 and 2026-07-28, `Icon`; SEP-973) on the server, tools, prompts, resources and
 * templates, and their check at definition: a client fetches or renders what it is given, so only image
 * URLs it can load safely pass.
 *
 * @module
 */

/**
 * An icon a client may show for the server, a tool, a prompt, a resource or a template (MCP 2025-11-25 and
 * 2026-07-28, `Icon`; SEP-973): served as given in the lists, the server's info, the server card and the OpenAPI
 * document, once `.icons()` (or `createServer({ icons })`) has checked it.
 *
 * @example
 * ```ts
 * import * as v from "valibot";
 * import { defineTool } from "@mcplite/sdk";
 * import type { Icon } from "@mcplite/sdk/types";
 * const logo: Icon = { src: "https://example.com/logo.svg", mimeType: "image/svg+xml", sizes: ["any"] };
 * const search = defineTool("search").input(v.object({ q: v.string() })).icons([logo]).handle(() => "found");
 * ```
 */
export interface Icon {
  /**
   * Where the image is: an `https:` URL, or a `data:` URI of an image (at most 64 KiB); `http:` only for a
   * loopback host (`localhost`, `127.0.0.1`, `[::1]`), for local development.
   */
  readonly src: string;
  /** Its MIME type, an `image/*` one (e.g. `"image/png"`), when the URL does not tell it. */
  readonly mimeType?: string;
  /** The sizes it can be shown at: `"48x48"`, …, or `"any"` for a scalable image (SVG). */
  readonly sizes?: readonly string[];
  /** The background it is drawn for: `"light"` or `"dark"`; any when absent. */
  readonly theme?: "light" | "dark";
}

/** The longest `data:` URI accepted, in characters: it is sent with every list that names its owner. */
export const MAX_DATA_URI = 65_536;

// RFC 2397 `data:<media type>[;base64],…` of an image; an https: URL; http: on a loopback host only.
const SOURCE = /^(?:data:image\/[\w.+-]+[;,]|https:\/\/[^\s/]|http:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?:[:/]|$))/i;
const IMAGE_TYPE = /^image\/[\w.+-]+$/i;
const SIZE = /^(?:[1-9]\d{0,4}x[1-9]\d{0,4}|any)$/;

/**
 * Checks icons as a definition declares them, and copies them frozen.
 *
 * @param icons The icons.
 * @param owner Who they are of, for errors (e.g. `tool "add"`).
 * @returns A frozen copy.
 * @throws {TypeError} For a `src` that is neither `https:` nor an image `data:` URI (`javascript:`,
 *   `file:`, `http:` off loopback, a relative URL), a `data:` URI over 64 KiB, a MIME type that is not
 *   `image/*`, a size that is neither `WxH` nor `"any"`, or a theme other than `"light"`/`"dark"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkIcons } from "./icon.ts";
 * assert.equal(checkIcons([{ src: "https://example.com/a.png", sizes: ["48x48"] }], "tool \"a\"").length, 1);
 * assert.throws(() => checkIcons([{ src: "javascript:alert(1)" }], "tool \"a\""), TypeError);
 * ```
 */
export function checkIcons(icons: readonly Icon[], owner: string): readonly Icon[] {
  return Object.freeze([...icons].map(({ src, mimeType, sizes, theme }, i) => {
    const broken = typeof src !== "string" || !SOURCE.test(src)
      ? "src must be an https: URL or an image data: URI (http: on localhost only)"
      : src.length > MAX_DATA_URI
      ? `src is limited to ${MAX_DATA_URI} characters`
      : mimeType !== undefined && !IMAGE_TYPE.test(mimeType)
      ? "mimeType must be an image/* type"
      : sizes !== undefined && !(Array.isArray(sizes) && sizes.every((size) => SIZE.test(size)))
      ? 'sizes must be strings like "48x48" or "any"'
      : theme !== undefined && theme !== "light" && theme !== "dark"
      ? 'theme must be "light" or "dark"'
      : undefined;
    if (broken !== undefined) throw new TypeError(`${owner} icon ${i}: ${broken}`);
    // A copy of the known members only, so that changing the option afterwards changes nothing served.
    return Object.freeze({
      src,
      ...(mimeType === undefined ? {} : { mimeType }),
      ...(sizes === undefined ? {} : { sizes: Object.freeze([...sizes]) }),
      ...(theme === undefined ? {} : { theme }),
    });
  }));
}
