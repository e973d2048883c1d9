/**
 * A model's program as the sandbox runs it: a Markdown fence around it removed, its TypeScript types stripped
 * by sucrase (`transforms: ["typescript"]`), and either form models write made the body of an async function:
 * a body with `return` and top-level `await`, or an async arrow function (`async () => { ... }`), called.
 *
 * @module
 */
import { transform } from "sucrase";

/** What a program became: the executor's source, or why it cannot run. */
export type ProgramSource = { readonly ok: true; readonly source: string } | {
  readonly ok: false;
  readonly message: string;
};

const FENCE = /^```(?:ts|typescript|js|javascript|tsx|jsx)?[ \t]*\n([\s\S]*?)\n?```\s*$/;
/** The head of a function expression: `async () =>`, `async (x) =>`, `async function`, `function`, `() =>`. */
const FUNCTION_HEAD = /^(?:async\s*(?:\(|function\b|[A-Za-z_$][\w$]*\s*=>)|function\b|\([^()]*\)\s*=>)/;
/** The body is compiled inside this head (then taken out): `return` and `await` are legal at its top level. */
const HEAD = "async function __program() {\n";

/**
 * Makes a program the body of an async function in JavaScript.
 *
 * @param code The program as the model wrote it, TypeScript or JavaScript.
 * @returns The body, or a syntax error's message (its line numbers the program's own).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { programSource } from "./program-source.ts";
 * assert.deepEqual(programSource("const n: number = 2;\nreturn n;"), { ok: true, source: "const n = 2;\nreturn n;" });
 * const arrow = programSource("async () => { return 1; }");
 * assert.ok(arrow.ok && arrow.source.startsWith("return await ("));
 * assert.equal(programSource("return (1").ok, false);
 * ```
 */
export function programSource(code: string): ProgramSource {
  const trimmed = code.trim();
  const text = FENCE.exec(trimmed)?.[1] ?? trimmed;
  if (FUNCTION_HEAD.test(text)) {
    // A function expression, called: `(async () => { ... }\n)()`; the newline ends a trailing line comment.
    const called = strip(`(${text}\n)`);
    if (called.ok) return { ok: true, source: `return await ${called.source}();` };
  }
  const body = strip(`${HEAD}${text}\n}`, 1);
  if (!body.ok) return body;
  const source = body.source;
  return { ok: true, source: source.slice(HEAD.length, source.lastIndexOf("\n}")) };
}

/** Strips the types of a piece of TypeScript; a syntax error names the program's line (`offset` lines added before). */
function strip(code: string, offset = 0): ProgramSource {
  try {
    return { ok: true, source: transform(code, { transforms: ["typescript"], disableESTransforms: true }).code };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      message: message.replace(
        /\((\d+):(\d+)\)$/,
        (_, line, column) => `(line ${Number(line) - offset}, column ${column})`,
      ),
    };
  }
}
