/**
 * What the execute tool runs with saved programs on: the model's `code` with its `args`, or a saved program named by
 * `program`, its `args` checked against the program's input schema (JSON Schema 2020-12) before it starts.
 *
 * @module
 */
import * as v from "valibot";
import type { CallContext } from "../core/call/call-context.ts";
import { fail, type ToolResult } from "../core/results/result.ts";
import { jsonSchemaInput } from "../tool/openapi/json-schema-input.ts";
import { NO_PRINCIPAL } from "./save-program-tool.ts";
import type { SavedPrograms } from "./saved-programs.ts";

/** The execute tool's input: `code` alone, or (saved programs on) `code` or `program`, with `args`. */
export interface ProgramInput {
  readonly code?: string;
  readonly program?: string;
  readonly args?: Record<string, unknown>;
}

/**
 * The execute tool's input schema.
 *
 * @param saved Whether saved programs are on (then `program` and `args` too, and `code` optional).
 * @returns The schema.
 */
export function executeInput(saved: boolean) {
  const code = v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(100_000),
    v.description("The program: TypeScript or JavaScript, the body of an async function or an async arrow function"),
  );
  if (!saved) return v.object({ code });
  return v.object({
    code: v.optional(code),
    program: v.optional(v.pipe(v.string(), v.description("A saved program to run, by name, instead of code"))),
    args: v.optional(v.pipe(v.record(v.string(), v.unknown()), v.description("The program's `args`"))),
  });
}

/**
 * The program a call runs, and its `args`.
 *
 * @param programs The saved programs, if on.
 * @param input The call's input.
 * @param ctx The call, whose caller's programs are read.
 * @returns The code and `args` (none without saved programs), or why it cannot run.
 */
export async function programToRun(
  programs: SavedPrograms | undefined,
  input: ProgramInput,
  ctx: CallContext,
): Promise<{ readonly code: string; readonly args?: Record<string, unknown> } | ToolResult> {
  const { code, program, args } = input;
  if (programs === undefined) return { code: code! };
  if (program === undefined) {
    // `args` declared only when given: a program of its own `const args` runs as it did without saved programs
    return code === undefined ? fail("Give the program's code, or a saved program's name as program") : { code, args };
  }
  if (code !== undefined) return fail("Give code or program, not both");
  const principal = programs.principal(ctx.auth);
  if (principal === undefined) return fail(NO_PRINCIPAL);
  const saved = await programs.get(principal, program);
  if (saved === undefined) return fail(`No saved program ${JSON.stringify(program)}`, { reason: "unknown" });
  const checked = await jsonSchemaInput(saved.inputSchema)["~standard"].validate(args ?? {});
  if (checked.issues !== undefined) {
    const issues = checked.issues.map((i) => `${i.path?.length ? `${i.path.join(".")}: ` : ""}${i.message}`);
    return fail(`The args of ${program} do not match its inputSchema: ${issues.join("; ")}`, { reason: "args" });
  }
  return { code: saved.code, args: args ?? {} };
}

/**
 * The statement that gives a program its `args`, on the prelude's line (so that the program's lines keep their
 * numbers): parsed from JSON, so that a key such as `__proto__` stays a property, as it was sent.
 *
 * @param args The args, if any.
 * @returns The statement, or nothing.
 */
export function argsPrelude(args: unknown): string {
  return args === undefined ? "" : `const args = JSON.parse(${JSON.stringify(JSON.stringify(args))}); `;
}
