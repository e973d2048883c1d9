/**
 * JSON parsing for untrusted bodies: bounded nesting, and no `__proto__` keys in the result.
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../core/error.ts";

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
  // A text shorter than the limit cannot nest deeper than it: skip the scan for ordinary bodies.
  if (text.length > maxDepth && depthOf(text) > maxDepth) {
    throw new ProtocolError(ErrorCode.ParseError, `Parse error: JSON nested deeper than ${maxDepth} levels`);
  }
  try {
    return text.includes('"__proto__"') ? JSON.parse(text, dropProto) : JSON.parse(text);
  } catch {
    throw new ProtocolError(ErrorCode.ParseError, "Parse error: the body is not valid JSON");
  }
}

function dropProto(key: string, value: unknown): unknown {
  return key === "__proto__" ? undefined : value;
}

/** Returns the deepest nesting of arrays and objects, ignoring brackets inside strings. */
function depthOf(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) max = depth;
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}
