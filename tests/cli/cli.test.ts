import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Listener } from "../../src/server/serve.ts";
import { server as longRunning } from "../../examples/long-running.ts";
import { serve } from "../../mod.ts";
import { slowProbe } from "../helpers/fixtures.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { buildNodeBundle, runCli, runProgram, startServer } from "./cli-helpers.ts";
import { waitFor } from "../helpers/wait.ts";

describe("mcplite (the CLI, run as a child process)", () => {
  let listener: Listener;
  let url: string;
  before(async () => {
    listener = await startServer();
    url = listener.url;
  });
  after(async () => await listener.close());

  it("lists the tools, one per line with its description", async () => {
    const run = await runCli(["list", url]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^add\s+Adds two numbers$/m);
    assert.match(run.stdout, /^countdown\s+Streams a countdown$/m);
    assert.equal(run.stderr, "");
  });

  it("inspects a server over MCP: server info, tools with input and output schemas", async () => {
    const run = await runCli(["inspect", `${url}/mcp`]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Server {2}fixtures 1\.2\.3$/m);
    assert.match(run.stdout, /^Wire {4}mcp \(2026-07-28/m);
    assert.match(run.stdout, /^ {2}add\n {4}Adds two numbers\n {4}input:\n {6}a {2}number, required\n/m);
    assert.match(run.stdout, /output:\n {6}sum {2}number, required/);
    assert.match(run.stdout, /^Prompts: none/m);
  });

  it("prints inspect --json as one JSON document on stdout", async () => {
    const run = await runCli(["inspect", `${url}/mcp`, "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.wire, "mcp");
    assert.deepEqual(report.tools.find((t: { name: string }) => t.name === "add").outputSchema.required, ["sum"]);
  });

  it("calls a tool with --arg values read by the input schema's types", async () => {
    const run = await runCli(["call", url, "echo", "--arg", "text=42", "--arg", "times=2"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "4242\n");
    const add = await runCli(["call", url, "add", "--args", '{"a": 1}', "--arg", "b=2.5", "--json"]);
    assert.equal(add.code, 0, add.stderr);
    assert.deepEqual(JSON.parse(add.stdout).structuredContent, { sum: 3.5 });
  });

  it("calls a tool over Webtools, at its URL or found at a bare origin after MCP-lite and MCP", async () => {
    const run = await runCli(["call", `${url}/webtools`, "add", "--arg", "a=2", "--arg", "b=3"]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { sum: 5 });
    const webtoolsOnly = await startServer([webtoolsBinding()]);
    try {
      const found = await runCli(["call", webtoolsOnly.url, "add", "--arg", "a=1", "--arg", "b=1", "--json"]);
      assert.equal(found.code, 0, found.stderr);
      assert.deepEqual(JSON.parse(found.stdout).structuredContent, { sum: 2 });
    } finally {
      await webtoolsOnly.close();
    }
  });

  it("exits 1 when the tool answers isError, with its message on stderr", async () => {
    const run = await runCli(["call", url, "fails"]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    assert.equal(run.stderr, "mcplite: fails failed: the quota is exhausted\n");
    const json = await runCli(["call", url, "fails", "--json"]);
    assert.equal(json.code, 1);
    assert.equal(JSON.parse(json.stdout).isError, true);
  });

  it("exits 2 for an unknown tool, naming the tools there are", async () => {
    const run = await runCli(["call", url, "nope"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^mcplite: unknown tool "nope" \(the server has add, echo, .*\)\n$/);
  });

  it("exits 2 for an --arg its type cannot read, or a key the tool does not take", async () => {
    const bad = await runCli(["call", url, "add", "--arg", "a=one", "--arg", "b=2"]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, 'mcplite: a: "one" is not a number\n');
    const unknown = await runCli(["call", url, "add", "--arg", "c=1"]);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr, 'mcplite: add has no argument "c" (it takes a, b)\n');
    const usage = await runCli(["call", url]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /call needs a tool name/);
  });

  it("exits 2 with one line when nothing answers at the URL", async () => {
    const run = await runCli(["list", "http://127.0.0.1:9/"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^mcplite: [^\n]+\n$/);
  });

  it("prints plain progress lines on stderr (not a TTY) while a tool streams; stdout has the result", async () => {
    const run = await runCli(["call", url, "countdown", "--arg", "count=3", "--arg", "delayMs=30"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "3 2 1 liftoff\n");
    assert.match(run.stderr, /^partial 3$/m);
    assert.match(run.stderr, /^partial liftoff$/m);
    const slow = await runCli(["call", url, "slow", "--arg", "ms=50"]);
    assert.equal(slow.code, 0, slow.stderr);
    assert.match(slow.stderr, /^progress 0\/2 \(0%\) started \[\d+\.\ds\]$/m);
    assert.match(slow.stderr, /^progress 2\/2 \(100%\) done \[\d+\.\ds\]$/m);
  });

  it("says on stderr what a call waits on: an MCP-lite promise being redeemed, an MCP task being polled", async () => {
    const jobs = await serve(longRunning, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const lite = await runCli(["call", jobs.url, "analyze_dataset", "--arg", "dataset_id=d1"]);
      assert.equal(lite.code, 0, lite.stderr);
      assert.equal(JSON.parse(lite.stdout).dataset_id, "d1");
      assert.match(lite.stderr, /^waiting: promise, redeeming in 500 ms \[\d+\.\ds\]$/m);
      const mcp = await runCli(["call", `${jobs.url}/mcp`, "analyze_dataset", "--arg", "dataset_id=d2"]);
      assert.equal(mcp.code, 0, mcp.stderr);
      assert.equal(JSON.parse(mcp.stdout).dataset_id, "d2");
      assert.match(mcp.stderr, /^waiting: task working \[/m);
      assert.match(mcp.stderr, /^waiting: task completed \[/m);
    } finally {
      await jobs.close();
    }
  });

  it("fails an elicitation without a TTY, saying so", async () => {
    const run = await runCli(["call", url, "greet"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /asks for input \("Who should I greet\?"\), but stdin is not a terminal/);
  });

  it("cancels the call on the server on SIGINT and exits 130", async () => {
    const aborted = slowProbe.aborted;
    let sent = false;
    const run = await runCli(["call", url, "slow", "--arg", "ms=20000"], {
      onStderr: (text, child) => {
        if (!sent && text.includes("started")) {
          sent = true;
          child.kill("SIGINT");
        }
      },
    });
    // Deno's node:child_process reports an exit code of 130 after kill("SIGINT") as the signal itself;
    // the "cancelled" line shows the CLI handled the signal and exited on its own.
    const isDeno = "Deno" in globalThis;
    assert.ok(run.code === 130 || (isDeno && run.signal === "SIGINT"), `code ${run.code}, signal ${run.signal}`);
    assert.match(run.stderr, /mcplite: cancelled\n$/);
    // The handler's count is a state no event announces: read until it moved (a bound of 10 s).
    await waitFor(() => slowProbe.aborted !== aborted, 10_000).catch(() => {});
    assert.equal(slowProbe.aborted, aborted + 1, "the server saw the call's signal abort");
  });

  it("prints --help and exits 0; an unknown option exits 2", async () => {
    const help = await runCli(["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage:\n {2}mcplite inspect <url>/m);
    const bad = await runCli(["list", url, "--nope"]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, "mcplite: unknown option --nope (see mcplite --help)\n");
  });

  it("with --json, reports an error as JSON on stdout too, beside the line on stderr", async () => {
    const refusedArgs = await runCli(["call", `${url}/mcp-lite/v1`, "add", "--args", '{"a": "one", "b": 2}', "--json"]);
    assert.equal(refusedArgs.code, 2);
    const report = JSON.parse(refusedArgs.stdout);
    assert.equal(report.exitCode, 2);
    assert.equal(report.error.code, "invalid_arguments");
    assert.equal(report.error.rpcCode, -32602);
    assert.equal(refusedArgs.stderr, `mcplite: ${report.error.message}\n`);
    const usage = await runCli(["list", url, "--nope", "--json"]);
    assert.equal(usage.code, 2);
    assert.deepEqual(JSON.parse(usage.stdout), {
      error: { code: "usage", message: "unknown option --nope (see mcplite --help)" },
      exitCode: 2,
    });
    const refused = await runCli(["list", "http://127.0.0.1:1", "--json"]);
    assert.equal(refused.code, 2);
    assert.deepEqual(Object.keys(JSON.parse(refused.stdout)), ["error", "exitCode"]);
  });

  it("runs on Node too (bundled to JavaScript): lists, streams with progress lines, and exits 130 on SIGINT", async () => {
    const bundle = await buildNodeBundle();
    const list = await runProgram("node", [bundle, "list", url]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^add\s+Adds two numbers$/m);
    const slow = await runProgram("node", [bundle, "call", url, "slow", "--arg", "ms=50"]);
    assert.equal(slow.code, 0, slow.stderr);
    assert.equal(slow.stdout, "finished\n");
    assert.match(slow.stderr, /^progress 2\/2 \(100%\) done/m);
    let sent = false;
    const interrupted = await runProgram("node", [bundle, "call", url, "slow", "--arg", "ms=20000"], {
      onStderr: (text, child) => {
        if (!sent && text.includes("started")) {
          sent = true;
          child.kill("SIGINT");
        }
      },
    });
    const isDeno = "Deno" in globalThis;
    assert.ok(
      interrupted.code === 130 || (isDeno && interrupted.signal === "SIGINT"),
      `code ${interrupted.code}, signal ${interrupted.signal}`,
    );
    assert.match(interrupted.stderr, /mcplite: cancelled\n$/);
  });
});
