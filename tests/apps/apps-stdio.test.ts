/**
 * The forecast example over stdio (`examples/apps/server.ts --stdio`) to the official v2 client
 * (`@modelcontextprotocol/client` 2.4, `StdioClientTransport`) declaring the MCP Apps extension: the
 * server advertises it in `initialize`, lists the tools with `_meta.ui`, serves the view as
 * `text/html;profile=mcp-app` with its CSP, and tells the tool that the client renders views.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import process from "node:process";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { runtimeCommand } from "../helpers/stdio.ts";

const UI = "io.modelcontextprotocol/ui";
const MIME = "text/html;profile=mcp-app";

describe("MCP Apps over stdio, from the official client", () => {
  let client: Client;
  /** What the server wrote to stderr (its log), shown with a failed assertion: an "Internal error" says no more. */
  let log = "";
  before(async () => {
    const { command, args } = runtimeCommand(new URL("../../examples/apps/server.ts", import.meta.url).pathname);
    client = new Client({ name: "apps-host", version: "1.0.0" }, {
      capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } },
    } as never);
    // This process's environment, not the client's default (HOME, PATH and a few more): on a machine that reaches the
    // npm registry through a TLS proxy, the server's first `deno bundle` downloads esbuild trusting the CA that
    // SSL_CERT_FILE names, which the default drops (a fresh DENO_DIR then fails with "UnknownIssuer").
    const env = Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
    );
    const transport = new StdioClientTransport({ command, args: [...args, "--stdio"], stderr: "pipe", env });
    transport.stderr?.on("data", (chunk: Uint8Array) => void (log += String(chunk)));
    await client.connect(transport);
  });
  after(async () => await client?.close());

  it("advertises the extension and lists the tools with their view", async () => {
    const capabilities = client.getServerCapabilities() as { extensions?: Record<string, unknown> };
    assert.deepEqual(capabilities.extensions?.[UI], { mimeTypes: [MIME] });
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => [tool.name, (tool._meta?.ui as { visibility: string[] }).visibility]),
      [["forecast", ["model", "app"]], ["refresh_forecast", ["app"]]],
    );
  });

  it("serves the view with its CSP, and the tool knows the client renders it", async () => {
    // The view's page is bundled on its first read (`deno bundle` or Bun.build): a failed bundle is the server's log.
    const read = await client.readResource({ uri: "ui://weather/forecast" }).catch((error: Error) => {
      throw new Error(`${error.message}; the server's stderr:\n${log}`);
    });
    const [view] = read.contents as unknown as { mimeType: string; text: string; _meta: { ui: { csp: unknown } } }[];
    assert.equal(view.mimeType, MIME);
    assert.deepEqual(view._meta.ui.csp, { connectDomains: ["https://api.open-meteo.com"] });
    const result = await client.callTool({ name: "forecast", arguments: { city: "Oslo", days: 1 } });
    assert.match((result.content as { text: string }[])[0].text, /shown in the forecast view/);
    assert.equal((result.structuredContent as { city: string }).city, "Oslo");
  });
});
