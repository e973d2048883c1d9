/**
 * The discover tool of code mode: finds the server's tools by what the model wants to do (tool search's ranking),
 * or by name, and answers their TypeScript declarations (as `mcplite types` prints them) with the `tools`
 * namespace a program calls them through. It finds only the tools the caller may call.
 *
 * @module
 */
import * as v from "valibot";
import type { AuthInfo } from "../core/call/call-context.ts";
import type { Registry } from "../core/definitions/registry.ts";
import { holdsScopes } from "../core/definitions/scopes.ts";
import { type AnyTool, describeTool, type Tool } from "../core/definitions/tool.ts";
import { fail, toolResult } from "../core/results/result.ts";
import { isObject } from "../internal/is-object.ts";
import { visibleTo } from "../internal/mcp-apps-wire.ts";
import { jsDoc, propertyKey } from "../internal/tool-types/print-type.ts";
import { docLines } from "../internal/tool-types/schema-to-type.ts";
import { toolDeclarations, type ToolSchemas } from "../internal/tool-types/tool-declarations.ts";
import { defineTool } from "../tool/define-tool.ts";
import { servedPrefix } from "../tool-search/served-namespace.ts";
import type { ToolCatalog } from "../tool-search/tool-catalog.ts";
import type { SavedProgram, SavedPrograms } from "./saved-programs.ts";

/** How the discover tool is named and how many tools a search answers by default. */
export interface DiscoverToolSettings {
  /** Its name. */
  readonly name: string;
  /** The execute tool's name, named in its description and never found. */
  readonly executeTool: string;
  /** The tools a search answers when the model does not say. */
  readonly limit: number;
  /** The caller's saved programs, found beside the tools (`codeMode({ savedPrograms })`), if on. */
  readonly programs?: SavedPrograms;
}

/**
 * The discover tool's description.
 *
 * @param executeTool The execute tool's name.
 * @returns What the model reads.
 */
export function discoverDescription(executeTool: string): string {
  return `Finds this server's tools and answers their TypeScript declarations, for programs you run with ` +
    `${executeTool}. Give \`query\` (what you want to do, in a few words) to search, or \`names\` to describe ` +
    "tools you know. Each tool is a method of `tools`: `await tools.name(input)`, or " +
    '`tools["a.b"](input)` for a name that is not an identifier.';
}

/**
 * Builds the discover tool over a catalog.
 *
 * @param registry The server's definitions, for tools asked by name.
 * @param catalog The search.
 * @param settings Its name, the execute tool's, the default count.
 * @returns The tool.
 */
export function discoverToolsTool(
  registry: Registry,
  catalog: ToolCatalog,
  settings: DiscoverToolSettings,
  // deno-lint-ignore no-explicit-any
): Tool<string, any, any, any> {
  const own = new Set([settings.name, settings.executeTool]);
  const { programs } = settings;
  const listed: v.ObjectEntries = programs === undefined ? {} : {
    programs: v.optional(v.pipe(v.boolean(), v.description("Lists all your saved programs"))),
  };
  return defineTool(settings.name)
    .describe(
      discoverDescription(settings.executeTool) + (programs === undefined ? "" : " It finds your saved programs " +
        `too (\`programs: true\` lists them all), which you run with ${settings.executeTool}({ program, args }).`),
    )
    .input(v.object({
      query: v.optional(v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(1000),
        v.description('What you want to do, in a few words (e.g. "list open issues")'),
      )),
      names: v.optional(v.pipe(v.array(v.string()), v.maxLength(50), v.description("Tools to describe, by name"))),
      limit: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(1),
          v.maxValue(50),
          v.description("How many tools a search answers"),
        ),
      ),
      ...listed,
    }))
    .annotations({ readOnlyHint: true, openWorldHint: false })
    .handle(async ({ query, names, limit, programs: all }: DiscoverInput, ctx) => {
      if (query === undefined && names === undefined && all !== true) {
        return fail("Give a query, or the names of tools");
      }
      const prefix = servedPrefix(ctx.tool, settings.name); // the names as the caller's server serves them
      const found = new Map<string, AnyTool>();
      const unknown: string[] = [];
      for (const served of names ?? []) {
        const name = prefix !== "" && served.startsWith(prefix) ? served.slice(prefix.length) : served;
        const tool = own.has(name) ? undefined : registry.get(name);
        if (tool !== undefined && callable(tool, ctx.auth)) found.set(name, tool);
        else unknown.push(served);
      }
      if (query !== undefined) {
        for (const tool of await catalog.search(query, limit ?? settings.limit, ctx.auth)) found.set(tool.name, tool);
      }
      const described = [...found.values()].map((tool) => ({ ...describeTool(tool, false), name: prefix + tool.name }));
      const saved = programs === undefined
        ? []
        : await programsFound(programs, ctx.auth, { query, names: unknown, all, limit: limit ?? settings.limit });
      if (saved.length > 0) {
        unknown.splice(
          0,
          unknown.length,
          ...unknown.filter((n) => !saved.some((p) => p.name === n)),
        );
      }
      const text = described.length + saved.length === 0
        ? "No tool found."
        : declarationsOf(described, saved, settings.executeTool) +
          (unknown.length === 0 ? "" : `\n\n// Not found: ${unknown.join(", ")}`);
      return toolResult({
        content: [{ type: "text", text }],
        structuredContent: {
          tools: described.map(({ name, description }) => ({
            name,
            ...(description === undefined ? {} : { description }),
          })),
          ...(unknown.length === 0 ? {} : { notFound: unknown }),
          ...(programs === undefined ? {} : {
            programs: saved.map(({ name, description }) => ({ name, description })),
          }),
        },
      });
    });
}

/** The discover tool's input. */
interface DiscoverInput {
  readonly query?: string;
  readonly names?: string[];
  readonly limit?: number;
  readonly programs?: boolean;
}

/** The caller's saved programs a discover call finds: all, those named, and the best for its query. */
async function programsFound(
  programs: SavedPrograms,
  auth: AuthInfo | undefined,
  asked: { query?: string; names: readonly string[]; all?: boolean; limit: number },
): Promise<SavedProgram[]> {
  const principal = programs.principal(auth);
  if (principal === undefined) return [];
  if (asked.all === true) return await programs.list(principal);
  const found = new Map<string, SavedProgram>();
  for (const program of await Promise.all(asked.names.map((name) => programs.get(principal, name)))) {
    if (program !== undefined) found.set(program.name, program);
  }
  if (asked.query !== undefined) {
    for (const program of await programs.search(principal, asked.query, asked.limit)) found.set(program.name, program);
  }
  return [...found.values()];
}

/** Whether the caller may call a tool: the model may see it (not a view's alone), and the caller holds its scopes. */
function callable(tool: AnyTool, auth: AuthInfo | undefined): boolean {
  return visibleTo(tool.meta, "model") && holdsScopes(tool.scopes, auth);
}

/**
 * The declarations a program is written against: each tool's input and output types, and `tools` with a method per
 * tool (its description as JSDoc; the input optional when nothing in it is required).
 *
 * @param tools The tools, named as the caller's server serves them.
 * @param programs The caller's saved programs found, declared as `programs` (their types named apart from the tools').
 * @param executeTool The execute tool's name, which runs them.
 * @returns The TypeScript.
 */
export function declarationsOf(
  tools: readonly ToolSchemas[],
  programs: readonly SavedProgram[] = [],
  executeTool = "execute_code",
): string {
  const schemas: (ToolSchemas & { program?: SavedProgram })[] = [
    ...tools,
    ...programs.map((program) => ({ ...program, program })),
  ];
  const { declarations, tools: both } = toolDeclarations(schemas, { exported: false });
  const declared = both.filter(({ tool }) => tool.program === undefined);
  const saved = both.flatMap(({ tool: { program }, input }) => program === undefined ? [] : [{ program, input }]);
  const runs = saved.map(({ program, input }) =>
    `${jsDoc(docLines({ description: program.description }), "  ")}  ${
      propertyKey(program.name)
    }(args: ${input}): unknown;`
  );
  const methods = declared.map(({ tool, input, output }) => {
    const required = isObject(tool.inputSchema) && Array.isArray(tool.inputSchema.required) &&
      tool.inputSchema.required.length > 0;
    const doc = jsDoc(docLines({ description: tool.description, title: tool.title }), "  ");
    return `${doc}  ${propertyKey(tool.name)}(input${required ? "" : "?"}: ${input}): Promise<${output ?? "unknown"}>;`;
  });
  const namespaces = [
    ...methods.length === 0 ? [] : [`declare const tools: {\n${methods.join("\n")}\n};`],
    ...runs.length === 0 ? [] : [
      `// Your saved programs: run one with ${executeTool}({ program: "name", args }).\n` +
      `declare const programs: {\n${runs.join("\n")}\n};`,
    ],
  ];
  return `${declarations.join("\n\n")}\n\n${namespaces.join("\n\n")}`;
}
