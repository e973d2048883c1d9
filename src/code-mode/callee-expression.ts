/**
 * The expression a failed call called, read back from the program's text at the position its error names: QuickJS
 * says `TypeError: not a function` where V8 names the callee (`items.map is not a function`), and a model fixes the
 * program sooner when told which expression it was. Member chains, calls of call results (`g(...)`) and indexes.
 *
 * @module
 */

/** Words before a parenthesised callee that are not a callee's name. */
const KEYWORDS = new Set([
  "return",
  "await",
  "typeof",
  "void",
  "delete",
  "in",
  "of",
  "new",
  "case",
  "throw",
  "yield",
  "else",
  "do",
]);

/** The longest callee named; a longer one keeps QuickJS's message. */
const MAX_CALLEE = 120;

/**
 * The callee of the call whose argument list opens at `line`:`column` of `text` (1-based, as QuickJS's stack names
 * them), as V8 names it in `TypeError: … is not a function`.
 *
 * @param text The program as compiled.
 * @param line The line of the call's `(`, from 1.
 * @param column Its column, from 1.
 * @returns The callee (`items.map`, `g(...)`, `rows[0].get`), or `undefined` where it cannot be read back.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { calleeAt } from "./callee-expression.ts";
 * assert.equal(calleeAt("const n = items.map((x) => x);", 1, 20), "items.map");
 * assert.equal(calleeAt("return make()(1);", 1, 14), "make(...)");
 * assert.equal(calleeAt("return (a || b)();", 1, 16), undefined);
 * ```
 */
export function calleeAt(text: string, line: number, column: number): string | undefined {
  let at = 0;
  for (let l = 1; l < line; l++) {
    at = text.indexOf("\n", at) + 1;
    if (at === 0) return undefined;
  }
  at += column - 1;
  if (text[at] !== "(") return undefined;
  const end = skipSpace(text, at - 1);
  let i = end;
  for (;;) {
    const c = text[i];
    if (c === ")" || c === "]") {
      const open = matching(text, i);
      if (open === undefined) return undefined;
      i = skipSpace(text, open - 1);
      continue;
    }
    if (c === undefined || !/[\w$]/.test(c)) return undefined; // the chain starts with no name: `(a || b)()`
    const last = i;
    while (i >= 0 && /[\w$]/.test(text[i])) i--;
    if (KEYWORDS.has(text.slice(i + 1, last + 1))) return undefined; // `return (a || b)()`
    const before = skipSpace(text, i);
    if (text[before] === "." && text[before - 1] !== ".") {
      i = skipSpace(text, text[before - 1] === "?" ? before - 2 : before - 1);
      continue;
    }
    const callee = tidy(text.slice(i + 1, end + 1));
    return callee.length > MAX_CALLEE || /^\d/.test(callee) ? undefined : callee;
  }
}

/**
 * A TypeError's message with its callee named, where QuickJS's says only `not a function`.
 *
 * @param message The error's message.
 * @param text The program as compiled.
 * @param position Where the error happened, `line:column`, as its stack names it.
 * @returns `<callee> is not a function`, or the message as it was.
 */
export function namedCallee(message: string, text: string, position: string | undefined): string {
  const at = position === undefined || message !== "not a function" ? undefined : /^(\d+):(\d+)$/.exec(position);
  const callee = at ? calleeAt(text, Number(at[1]), Number(at[2])) : undefined;
  return callee === undefined ? message : `${callee} is not a function`;
}

/** The index of the last non-space character at or before `i`. */
function skipSpace(text: string, i: number): number {
  while (i >= 0 && /\s/.test(text[i])) i--;
  return i;
}

/** The index of the `(` or `[` that the `)` or `]` at `i` closes (strings and templates are not read). */
function matching(text: string, i: number): number | undefined {
  let depth = 0;
  for (; i >= 0; i--) {
    const c = text[i];
    if (c === ")" || c === "]" || c === "}") depth++;
    else if (c === "(" || c === "[" || c === "{") {
      if (--depth === 0) return i;
    }
  }
  return undefined;
}

/** The callee as V8 prints it: a call's arguments as `(...)`, white space outside indexes dropped. */
function tidy(callee: string): string {
  let out = "";
  for (let i = 0; i < callee.length; i++) {
    const c = callee[i];
    if (c === "(" || c === "[") {
      const close = c === "(" ? ")" : "]";
      let depth = 0, j = i;
      for (; j < callee.length; j++) {
        if (callee[j] === c) depth++;
        else if (callee[j] === close && --depth === 0) break;
      }
      out += c === "(" ? "(...)" : callee.slice(i, j + 1).replace(/\s+/g, " ");
      i = j;
    } else if (!/\s/.test(c)) out += c;
  }
  return out;
}
