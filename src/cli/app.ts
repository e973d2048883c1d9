/**
 * `mcplite app <target> <tool>`: a local MCP Apps host (SEP-1865). It finds the tool's `ui://` view,
 * reads it, and serves a page on 127.0.0.1 that calls the tool, renders the view in a sandboxed iframe
 * under the view's CSP, and bridges the view's requests back to the server, until Ctrl-C. No chat
 * host needed to see a view.
 *
 * @module
 */
import { argumentsFor } from "./arg-values.ts";
import type { CommandContext } from "./command.ts";
import { ExitCode, UsageError } from "./exit-errors.ts";
import { findTool } from "./find-tool.ts";
import { serve } from "../server/serve.ts";
import { APP_MIME_TYPE, type AppResourceMeta, LEGACY_RESOURCE_URI_KEY } from "../internal/mcp-apps-wire.ts";
import { previewHandler } from "./preview/preview-server.ts";

/** How long Ctrl-C waits for the preview's open requests before it returns (the CLI's grace is 3 s). */
const CLOSE_WAIT_MS = 1000;

/**
 * Runs `app`.
 *
 * @param ctx The client, the command line, the terminal and the interrupt signal.
 * @returns 0 once interrupted.
 * @throws {UsageError} For an unknown tool, a tool without a view, or a view that is not HTML.
 */
export async function appCommand(ctx: CommandContext): Promise<number> {
  const { client, args, terminal, signal } = ctx;
  const name = args.tool!;
  const { tool, tools } = await findTool(client, name, signal);
  const meta = tool._meta ?? {};
  const uri = (meta.ui as { resourceUri?: unknown } | undefined)?.resourceUri ?? meta[LEGACY_RESOURCE_URI_KEY];
  if (typeof uri !== "string" || !uri.startsWith("ui://")) {
    const withViews = tools.filter((t) => (t._meta?.ui as { resourceUri?: unknown } | undefined)?.resourceUri);
    throw new UsageError(
      `tool ${JSON.stringify(name)} has no view (_meta.ui.resourceUri)` +
        (withViews.length ? `; these have one: ${withViews.map((t) => t.name).join(", ")}` : ""),
    );
  }
  const input = argumentsFor(tool, args.argsJson, args.argPairs);
  const read = await client.readResource(uri, { signal });
  const contents = (read.contents as Record<string, unknown>[] | undefined)?.[0];
  if (contents === undefined || contents.mimeType !== APP_MIME_TYPE) {
    throw new UsageError(`${uri} is not an MCP Apps view (${APP_MIME_TYPE}): ${String(contents?.mimeType)}`);
  }
  const html = typeof contents.text === "string"
    ? contents.text
    : new TextDecoder().decode(Uint8Array.from(atob(String(contents.blob ?? "")), (c) => c.charCodeAt(0)));
  const ui = (contents._meta as { ui?: AppResourceMeta } | undefined)?.ui;
  const fetch = previewHandler({ client, tool, args: input, html, ui, signal });
  const listener = await serve({ fetch }, { port: args.port ?? 0, hostname: "127.0.0.1", quiet: true });
  try {
    await terminal.out(`${listener.url}/\n`);
    await terminal.err(`mcplite: previewing ${uri} for ${name} at ${listener.url}/ (Ctrl-C to stop)\n`);
    await new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      signal.addEventListener("abort", () => resolve(), { once: true });
    });
  } finally {
    // Ctrl-C stops the preview: requests a page still has in flight get a moment to finish, not the CLI's whole
    // grace period (past which it exits 130, as if it had hung).
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([listener.close(), new Promise((resolve) => timer = setTimeout(resolve, CLOSE_WAIT_MS))]);
    clearTimeout(timer);
  }
  return ExitCode.Ok;
}
