/**
 * The forecast example over stdio on Deno (`examples/apps/server.ts --stdio`) when its view cannot be bundled:
 * `deno bundle` installs esbuild into DENO_DIR on first use, and a fresh DENO_DIR whose install fails (here: an npm
 * registry that refuses connections; on a fresh CI machine, two first installs at once) made every read of the view
 * answer "Internal error", the server's log empty. The read is refused `unavailable` with a wait, the cause is in
 * the server's stderr, and once the bundler works the next read serves the view (a failed bundle is not kept).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ROOT } from "../helpers/process.ts";

const UI = "io.modelcontextprotocol/ui";
const MIME = "text/html;profile=mcp-app";
const DENO = `${ROOT}node_modules/.bin/deno`;
const VIEW = `${ROOT}examples/apps/view.ts`;

describe("MCP Apps over stdio on Deno, when the view cannot be bundled", () => {
  let client: Client;
  let log = "";
  /** The DENO_DIR the server runs with: empty, so that `deno bundle` has to install esbuild. */
  const denoDir = mkdtempSync(join(tmpdir(), "mcplite-deno-dir-"));
  /** The machine's DENO_DIR, where esbuild is installed (a bundle made here, once, installs it). */
  let machineDenoDir: string;

  before(async () => {
    execFileSync(DENO, ["bundle", "--quiet", "--platform", "browser", VIEW], { stdio: "ignore", timeout: 120_000 });
    machineDenoDir = JSON.parse(execFileSync(DENO, ["info", "--json"], { encoding: "utf8" })).denoDir;
    client = new Client({ name: "apps-host", version: "1.0.0" }, {
      capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } },
    } as never);
    const transport = new StdioClientTransport({
      command: DENO,
      args: ["run", "-A", `${ROOT}examples/apps/server.ts`, "--stdio"],
      // No registry to install esbuild from: the install fails at once, offline.
      env: { ...getDefaultEnvironment(), DENO_DIR: denoDir, NPM_CONFIG_REGISTRY: "http://127.0.0.1:1/" },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Uint8Array) => void (log += String(chunk)));
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
    rmSync(denoDir, { recursive: true, force: true });
  });

  it("refuses the read unavailable with the cause in its log, then serves the view once the bundler works", {
    timeout: 120_000,
  }, async () => {
    const failed = await client.readResource({ uri: "ui://weather/forecast" }).then(
      () => undefined,
      (error: Error & { data?: { code?: string; retryAfterMs?: number } }) => error,
    );
    assert.ok(failed !== undefined, "the view was served without a bundler");
    assert.match(failed.message, /could not be built; try again/, `${failed.message}; the server's stderr:\n${log}`);
    assert.equal(failed.data?.code, "unavailable");
    assert.equal(failed.data?.retryAfterMs, 1_000);
    assert.match(log, /The forecast view could not be bundled: deno bundle .* failed: .*esbuild/s);
    // esbuild installed: the machine's, as another process's install would have left it.
    rmSync(join(denoDir, "dl"), { recursive: true, force: true });
    symlinkSync(join(machineDenoDir, "dl"), join(denoDir, "dl"));
    const read = await client.readResource({ uri: "ui://weather/forecast" });
    const [view] = read.contents as unknown as { mimeType: string; text: string }[];
    assert.equal(view.mimeType, MIME);
    assert.match(view.text, /<script/);
  });
});
