/**
 * The MCP Inspector's command line (`@modelcontextprotocol/inspector` 2.12, `--cli`), a client nobody
 * here wrote, launching `examples/stdio.ts` with a command: it lists tools, calls one, gets `isError`
 * from a failing one, reads a resource and gets a prompt. The Inspector needs Node ≥ 22.19; it runs on
 * the Bun the project installs (this machine's Node is older). Its CLI has no progress or cancel
 * option: the official clients' test covers those.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { runtimeCommand } from "../helpers/stdio.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BUN = `${ROOT}node_modules/.bin/bun`;
const INSPECTOR = `${ROOT}node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js`;
const server = runtimeCommand(`${ROOT}examples/stdio.ts`);

/** Runs the Inspector CLI against the example server (20 s at most). */
function inspect(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      BUN,
      [INSPECTOR, "--cli", server.command, ...server.args, ...args],
      { timeout: 20_000, cwd: ROOT },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("the MCP Inspector CLI over stdio", () => {
  it("lists the tools", async () => {
    const { code, stdout } = await inspect("--method", "tools/list");
    assert.equal(code, 0);
    const names = JSON.parse(stdout).tools.map((tool: { name: string }) => tool.name);
    assert.deepEqual(names, ["add_note", "read_note", "count_words", "wait"]);
  });

  it("calls a tool, and sees a failing one as isError", async () => {
    const ok = await inspect("--method", "tools/call", "--tool-name", "read_note", "--tool-arg", "title=welcome");
    assert.equal(ok.code, 0);
    assert.deepEqual(JSON.parse(ok.stdout).content, [{
      type: "text",
      text: "Notes live in this process while it runs.",
    }]);
    const failed = await inspect("--method", "tools/call", "--tool-name", "read_note", "--tool-arg", "title=none");
    assert.notEqual(failed.code, 0);
    assert.equal(JSON.parse(failed.stdout).isError, true);
  });

  it("reads a resource and gets a prompt", async () => {
    const read = await inspect("--method", "resources/read", "--uri", "notes://welcome");
    assert.equal(JSON.parse(read.stdout).contents[0].text, "Notes live in this process while it runs.");
    const prompt = await inspect(
      "--method",
      "prompts/get",
      "--prompt-name",
      "summarize",
      "--prompt-args",
      "title=welcome",
    );
    assert.match(JSON.stringify(JSON.parse(prompt.stdout).messages), /Notes live in this process/);
  });
});
