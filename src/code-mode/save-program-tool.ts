/**
 * The save tool of code mode (`save_program`, with `codeMode({ savedPrograms })`): the caller keeps a program that
 * worked under a name, with a description and its arguments' JSON Schema, or removes one. It does not run the
 * program: a run would make its tool calls again (a refund twice); the model saves what `execute_code` just ran.
 *
 * @module
 */
import * as v from "valibot";
import type { Tool } from "../core/definitions/tool.ts";
import { fail, toolResult } from "../core/results/result.ts";
import { defineTool } from "../tool/define-tool.ts";
import { programSource } from "./program-source.ts";
import type { SavedPrograms } from "./saved-programs.ts";

/** How the save tool is named, and the tools it names. */
export interface SaveToolSettings {
  /** Its name. */
  readonly name: string;
  /** The execute tool's name. */
  readonly executeTool: string;
  /** The discover tool's name. */
  readonly discoverTool: string;
}

/** What a caller without a principal is told. */
export const NO_PRINCIPAL = "Saved programs are kept per authenticated caller, and this call has none";

/**
 * Builds the save tool.
 *
 * @param programs The saved programs.
 * @param settings Its name, the others'.
 * @returns The tool.
 */
export function saveProgramTool(
  programs: SavedPrograms,
  settings: SaveToolSettings,
  // deno-lint-ignore no-explicit-any
): Tool<string, any, any, any> {
  const { executeTool, discoverTool } = settings;
  return defineTool(settings.name)
    .describe(
      `Saves a program that worked, under a name, so that you (in this session or a later one) can run it again ` +
        `with ${executeTool}({ program: name, args }) and find it with ${discoverTool}. First run it with ` +
        `${executeTool}({ code, args }), the values it varies read from \`args\`; then save the same code, a ` +
        "description of what it does, and the JSON Schema of its args. Saving a name again replaces it; " +
        `\`remove: true\` removes it. You keep at most ${programs.max} programs of ${programs.maxBytes} bytes each.`,
    )
    .input(v.object({
      name: v.pipe(v.string(), v.description("Its name: an identifier, such as refund_large_orders")),
      description: v.optional(v.pipe(v.string(), v.maxLength(2_000), v.description("What it does and answers"))),
      code: v.optional(v.pipe(v.string(), v.minLength(1), v.description(`The program, as ${executeTool} ran it`))),
      inputSchema: v.optional(v.pipe(
        v.record(v.string(), v.unknown()),
        v.description('The JSON Schema of its args (default { "type": "object" }: none)'),
      )),
      remove: v.optional(v.pipe(v.boolean(), v.description("Removes the program of this name instead"))),
    }))
    .annotations({ idempotentHint: true, openWorldHint: false })
    .handle(async ({ name, description, code, inputSchema, remove }, ctx) => {
      const principal = programs.principal(ctx.auth);
      if (principal === undefined) return fail(NO_PRINCIPAL);
      if (remove === true) {
        const had = await programs.remove(principal, name);
        return had
          ? toolResult({ content: [{ type: "text", text: `Removed ${name}` }], structuredContent: { removed: name } })
          : fail(`No saved program ${JSON.stringify(name)}`);
      }
      if (code === undefined || description === undefined) return fail("Give the program's code and description");
      const program = { name, description, code, inputSchema: inputSchema ?? { type: "object" } };
      const refused = programs.checkProgram(program);
      if (refused !== undefined) return fail(refused);
      const parsed = programSource(code);
      if (!parsed.ok) return fail(`The program does not parse: ${parsed.message}`);
      const full = await programs.save(principal, program);
      if (full !== undefined) return fail(full);
      return toolResult({
        content: [{ type: "text", text: `Saved ${name}: run it with ${executeTool}({ program: "${name}", args })` }],
        structuredContent: { saved: name },
      });
    });
}
