/**
 * JSON parsing for untrusted bodies: bounded nesting, and no `__proto__` keys in the result.
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";

/**
 * Parses untrusted JSON. Bodies nested deeper than `maxDepth` are refused before parsing, so no later
 * step (validation, serialisation) can overflow the stack; `__proto__` keys are dropped.
 *
 * @param text The JSON text.
 * @param maxDepth The deepest nesting accepted.
 * @returns The value.
 * @throws {ProtocolError} `parse_error` for malformed or too deeply nested JSON.
 */
export function parseJson(text: string, maxDepth: number): unknown {
  // JSON that nests deeper than the limit opens and closes more than `maxDepth` brackets, so a text
  // shorter than twice that cannot (malformed text fails to parse either way): no scan for ordinary bodies.
  if (text.length > 2 * maxDepth + 1 && !fewOpeners(text, maxDepth) && nestsDeeper(text, maxDepth)) {
    throw new ProtocolError("parse_error", `Parse error: JSON nested deeper than ${maxDepth} levels`);
  }
  try {
    return mayNameProto(text) ? JSON.parse(text, dropProto) : JSON.parse(text);
  } catch {
    throw new ProtocolError("parse_error", "Parse error: the body is not valid JSON");
  }
}

function dropProto(key: string, value: unknown): unknown {
  return key === "__proto__" ? undefined : value;
}

/**
 * Tells whether a key of the text may decode to `__proto__`: it is written out (`"__proto__"`), or the
 * text has a `\u` escape (`"\u005f_proto__"` decodes to it too; no other JSON escape, RFC 8259 §7,
 * yields a letter or `_`). Only such texts pay for the reviver. The search starts from the rare `__`
 * and `\`, not the `"` that JSON is full of: on V8 looking for `"__proto__"` in a 300-character body
 * costs ~220 ns, this ~40 ns.
 */
function mayNameProto(text: string): boolean {
  if (text.includes("\\u")) return true;
  for (let i = text.indexOf("__proto__"); i !== -1; i = text.indexOf("__proto__", i + 9)) {
    if (text.charCodeAt(i - 1) === 34 && text.charCodeAt(i + 9) === 34) return true; // "__proto__"
  }
  return false;
}

/**
 * Tells whether the text holds at most `max` brackets that open an array or an object, in which case
 * it cannot nest deeper than `max`. Native `indexOf` makes this far cheaper than a scan for the
 * ordinary body (a handful of objects); it gives up as soon as the count passes `max`.
 */
function fewOpeners(text: string, max: number): boolean {
  let count = 0;
  for (let i = text.indexOf("{"); i !== -1; i = text.indexOf("{", i + 1)) if (++count > max) return false;
  for (let i = text.indexOf("["); i !== -1; i = text.indexOf("[", i + 1)) if (++count > max) return false;
  return true;
}

/**
 * Tells whether arrays and objects nest deeper than `max`, ignoring brackets inside strings. Strings
 * are skipped with `indexOf` (native), so the loop only visits the structure; it stops at the first
 * level over the limit.
 */
function nestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) { // a string: jump to its closing quote, past escaped ones
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return false; // unterminated: JSON.parse reports it
      i = end;
    } else if (c === 91 || c === 123) { // [ {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--; // ] }
  }
  return false;
}

/** Tells whether the quote at `at` is escaped (preceded by an odd number of backslashes). */
function isEscaped(text: string, at: number): boolean {
  let slashes = 0;
  while (text.charCodeAt(at - 1 - slashes) === 92) slashes++;
  return (slashes & 1) === 1;
}
