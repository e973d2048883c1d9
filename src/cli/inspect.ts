/**
 * `mcplite inspect <target>`: who the server is, its tools with their input and output schemas, its
 * resources, resource templates and prompts: whatever the wire carries (MCP-lite and Webtools carry
 * tools only).
 *
 * @module
 */
import type { Client } from "../client/client.ts";
import type { ToolInfo } from "../client/transport.ts";
import type { CommandContext } from "./command.ts";
import { errorLine, ExitCode, oneLine } from "./exit-errors.ts";
import { formatTool } from "./format.ts";

/** A section the wire may not carry: its items, or why there are none. */
type Section = { items: Record<string, unknown>[] } | { unavailable: string };

/** What `inspect --json` prints. */
export interface Inspection {
  /** The wire the target speaks. */
  wire: string;
  /**
   * Who the server is (server info, capabilities, instructions): MCP 2026-07-28's `server/discover`
   * answer, or a 2025 server's `initialize` answer; `null` when the wire carries neither.
   */
  server: Record<string, unknown> | null;
  /** The tools. */
  tools: ToolInfo[];
  /** The resources, or why they are unavailable. */
  resources: Section;
  /** The resource templates, or why they are unavailable. */
  resourceTemplates: Section;
  /** The prompts, or why they are unavailable. */
  prompts: Section;
}

/**
 * Runs `inspect`.
 *
 * @param ctx The client, the command line, the terminal and the interrupt signal.
 * @returns The exit code.
 */
export async function inspectCommand(ctx: CommandContext): Promise<number> {
  const report = await inspect(ctx.client, ctx.signal);
  await ctx.terminal.out(ctx.args.json ? JSON.stringify(report, null, 2) + "\n" : formatInspection(report));
  return ExitCode.Ok;
}

/**
 * Gathers what the server tells about itself. Tools must list (that also finds the wire); the rest
 * is optional.
 *
 * @param client The client.
 * @param signal Aborted on Ctrl-C.
 * @returns The inspection.
 */
export async function inspect(client: Client, signal: AbortSignal): Promise<Inspection> {
  const tools = await client.listTools({ signal });
  const section = async (list: () => Promise<Record<string, unknown>[]>): Promise<Section> => {
    try {
      return { items: await list() };
    } catch (error) {
      if (signal.aborted) throw error;
      return { unavailable: errorLine(error) };
    }
  };
  const [server, resources, resourceTemplates, prompts] = await Promise.all([
    client.discover({ signal }).catch((error) => {
      if (signal.aborted) throw error;
      return null;
    }),
    section(() => client.listResources({ signal })),
    section(() => client.listResourceTemplates({ signal })),
    section(() => client.listPrompts({ signal })),
  ]);
  return { wire: client.wire, server, tools, resources, resourceTemplates, prompts };
}

function formatInspection(report: Inspection): string {
  const out: string[] = [];
  const meta = report.server?._meta as Record<string, unknown> | undefined;
  const info = (report.server?.serverInfo ?? meta?.["io.modelcontextprotocol/serverInfo"]) as
    | Record<string, unknown>
    | undefined;
  const name = info ? `${info.title ?? info.name} ${info.version ?? ""}`.trim() : "(no server info on this wire)";
  // 2026-07-28 lists the versions the server speaks; a 2025 server names the one it agreed to.
  const agreed = report.server?.protocolVersion;
  const versions = report.server?.supportedVersions ?? (typeof agreed === "string" ? [agreed] : undefined);
  out.push(`Server  ${name}`);
  const mcp = `mcp${Array.isArray(versions) ? ` (${versions.join(", ")})` : ""}`;
  // From a bare origin, tools may go over MCP-lite while the rest (and this description) came over MCP.
  const wire = report.server === null ? report.wire : report.wire === "mcp" ? mcp : `${report.wire} (tools); ${mcp}`;
  out.push(`Wire    ${wire}`);
  if (typeof report.server?.instructions === "string") out.push(`        ${oneLine(report.server.instructions)}`);
  if (report.server === null && (report.wire === "mcp-lite" || report.wire === "webtools")) {
    out.push(`        (${report.wire} carries tools only; an MCP endpoint, often /mcp, tells more)`);
  }
  out.push("", `Tools (${report.tools.length})`);
  for (const tool of report.tools) out.push(formatTool(tool).trimEnd());
  out.push(...sectionLines("Resources", report.resources, (r) => `${r.uri}  ${r.name ?? ""}`));
  out.push(...sectionLines("Resource templates", report.resourceTemplates, (r) => `${r.uriTemplate}  ${r.name ?? ""}`));
  out.push(...sectionLines("Prompts", report.prompts, (p) => {
    const args = Array.isArray(p.arguments)
      ? (p.arguments as { name: string; required?: boolean }[]).map((a) => a.required ? a.name : `[${a.name}]`)
      : [];
    return `${p.name}${args.length ? `(${args.join(", ")})` : ""}  ${oneLine(String(p.description ?? ""))}`;
  }));
  return out.join("\n") + "\n";
}

function sectionLines(title: string, section: Section, line: (item: Record<string, unknown>) => string): string[] {
  if ("unavailable" in section) return ["", `${title}: none (${section.unavailable})`];
  return ["", `${title} (${section.items.length})`, ...section.items.map((item) => `  ${line(item).trimEnd()}`)];
}
