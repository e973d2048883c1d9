/**
 * Style-based serialization of one value into `name=value` pairs, percent-encoded: the query
 * parameter styles (`form`, `spaceDelimited`, `pipeDelimited`, `deepObject`; OpenAPI 3.1.0 §4.8.12.4,
 * "Style Values" and its table of examples) and the Encoding Object's `style`, `explode` and
 * `allowReserved` for form bodies (OpenAPI 3.1.0 §4.8.15). What the specification leaves undefined,
 * arrays and nested objects under `deepObject`, follows the bracket convention of PHP and Rails that
 * APIs such as Stripe's expect (`line_items[0][price]=…`, `metadata[key]=v`).
 *
 * @module
 */
import { isObject } from "../../internal/is-object.ts";

/** How `deepObject` writes an array, which OpenAPI leaves undefined: `a[0]=x` (`indexed`) or `a[]=x` (`brackets`). */
export type DeepObjectArrays = "indexed" | "brackets";

/** How one value is serialized. */
export interface Styling {
  /** `form`, `spaceDelimited`, `pipeDelimited` or `deepObject`. */
  readonly style: string;
  /** Whether arrays and objects become one pair per item or member. */
  readonly explode: boolean;
  /** Whether the reserved characters of RFC 3986 §2.2 are sent as they are. */
  readonly allowReserved: boolean;
  /**
   * Whether the `,` and `|` between items are percent-encoded too (a form body: its parser decodes each
   * value before splitting it, WHATWG URL §5.1, and validators such as Prism refuse them raw).
   */
  readonly encodeDelimiters?: boolean;
}

// RFC 3986 §2.2 reserved characters and §2.3 unreserved ones: what `allowReserved` leaves as it is.
const NOT_RESERVED_OR_UNRESERVED = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/gu;

/**
 * Percent-encodes a string (RFC 3986 §2.1), the reserved characters too unless `allowReserved`.
 *
 * @param text The text.
 * @param allowReserved Leave RFC 3986 §2.2's reserved characters unencoded.
 * @returns The encoded text.
 */
export function percentEncode(text: string, allowReserved = false): string {
  return allowReserved ? text.replace(NOT_RESERVED_OR_UNRESERVED, encodeURIComponent) : encodeURIComponent(text);
}

/**
 * A primitive as text: a string as it is, a number or boolean its literal, `null` empty; an array or
 * object (nested where the style defines no nesting) its JSON text.
 *
 * @param value The value.
 * @returns The text.
 */
export function scalarText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

const DELIMITERS: Readonly<Record<string, string>> = { spaceDelimited: "%20", pipeDelimited: "|" };

/**
 * Serializes a value as the `name=value` pairs of a query string or form body.
 *
 * @param name The parameter's (or body property's) name.
 * @param value The value.
 * @param styling Its style, explode and allowReserved.
 * @param arrays How `deepObject` writes arrays.
 * @returns The encoded pairs, to join with `&`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { styledPairs } from "./serialize.ts";
 * const deep = { style: "deepObject", explode: true, allowReserved: false };
 * assert.deepEqual(styledPairs("color", { R: 100, G: 200 }, deep, "indexed"), ["color%5BR%5D=100", "color%5BG%5D=200"]);
 * assert.deepEqual(styledPairs("items", [{ price: "p_1" }], deep, "indexed"), ["items%5B0%5D%5Bprice%5D=p_1"]);
 * const pipes = { style: "pipeDelimited", explode: false, allowReserved: false };
 * assert.deepEqual(styledPairs("color", ["blue", "black"], pipes, "indexed"), ["color=blue|black"]);
 * ```
 */
export function styledPairs(name: string, value: unknown, styling: Styling, arrays: DeepObjectArrays): string[] {
  const e = (text: string) => percentEncode(text, styling.allowReserved);
  if (styling.style === "deepObject" && (Array.isArray(value) || isObject(value))) {
    const pairs: string[] = [];
    deepPairs(e(name), value, e, arrays, pairs);
    return pairs;
  }
  const key = e(name);
  const raw = DELIMITERS[styling.style] ?? ",";
  const delimiter = styling.encodeDelimiters === true && !styling.allowReserved ? encodeURIComponent(raw) : raw;
  if (Array.isArray(value)) {
    if (styling.explode) return value.map((item) => `${key}=${e(scalarText(item))}`);
    return [`${key}=${value.map((item) => e(scalarText(item))).join(delimiter)}`];
  }
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (styling.explode) return entries.map(([k, v]) => `${e(k)}=${e(scalarText(v))}`);
    return [`${key}=${entries.map(([k, v]) => `${e(k)}${delimiter}${e(scalarText(v))}`).join(delimiter)}`];
  }
  return [`${key}=${e(scalarText(value))}`];
}

/** `deepObject`, recursively: `a[k]=v`, `a[k][j]=v`, `a[0][k]=v` (or `a[][k]=v`). */
function deepPairs(
  prefix: string,
  value: unknown,
  e: (text: string) => string,
  arrays: DeepObjectArrays,
  out: string[],
): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => deepPairs(`${prefix}%5B${arrays === "indexed" ? i : ""}%5D`, item, e, arrays, out));
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) deepPairs(`${prefix}%5B${e(k)}%5D`, v, e, arrays, out);
    }
  } else out.push(`${prefix}=${e(scalarText(value))}`);
}
