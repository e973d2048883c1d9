/**
 * `mcplite check`, as CI runs it: over HTTP against a server with known confusable tools, undocumented arguments and
 * a fixed-set string (each reported with its tool and reason in `--json`; exit 1 at `--fail-on warning`, 0 at the
 * default `error`), against a clean server (exit 0 at any severity), with a token budget, selection cases from a file
 * and tools called; over stdio against the official `server-everything`; on a tool list saved in a file (the GitHub
 * MCP server's); and with the options misused (exit 2).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { serve } from "../../mod.ts";
import type { Listener } from "../../src/server/serve.ts";
import type { ToolCheckReport } from "../../src/testing/mod.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import { cleanServer, messyServer } from "../quality/quality-servers.ts";
import { runCli } from "./cli-helpers.ts";

describe("mcplite check", () => {
  let messy: Listener;
  let clean: Listener;
  const dir = scratchDir("mcplite-check-");
  before(async () => {
    messy = await serve(messyServer(), { port: 0, hostname: "127.0.0.1", quiet: true });
    clean = await serve(cleanServer(), { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await messy.close();
    await clean.close();
  });

  it("reports each problem with its tool and reason as JSON, and exits by severity", async () => {
    const run = await runCli(["check", messy.url, "--json"]);
    assert.equal(run.code, 0, run.stderr); // warnings only: the default --fail-on is error
    const report = JSON.parse(run.stdout) as ToolCheckReport;
    assert.deepEqual(report.findings.map((f) => [f.severity, f.rule, f.tool]), [
      ["warning", "parameter-description", "get_user"],
      ["warning", "parameter-description", "get_users"],
      ["warning", "fixed-set", "list_orders"],
      ["warning", "confusable", "get_user"],
    ]);
    assert.deepEqual(report.confusable[0].tools, ["get_user", "get_users"]);
    assert.match(report.confusable[0].why, /names are the same words/);
    const strict = await runCli(["check", messy.url, "--json", "--fail-on", "warning"]);
    assert.equal(strict.code, 1);
    const ignored = await runCli([
      "check",
      messy.url,
      "--fail-on",
      "warning",
      "--ignore",
      "parameter-description",
      "--ignore",
      "fixed-set",
      "--ignore",
      "confusable:get_user",
    ]);
    assert.equal(ignored.code, 0, ignored.stdout);
  });

  it("exits 0 on a clean server at any severity, and prints a table", async () => {
    const run = await runCli(["check", clean.url, "--fail-on", "info"]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^2 tools: 0 errors, 0 warnings, 0 infos$/m);
    assert.match(run.stdout, /^tokens \(o200k_base\):$/m);
    assert.match(run.stdout, /^ {2}openai-chat +\d+ +list_orders \d+, get_user \d+$/m);
  });

  it("fails a list over --max-tokens, in the table as in JSON", async () => {
    const run = await runCli(["check", clean.url, "--max-tokens", "50"]);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^error +token-budget +the list costs \d+ tokens in openai-chat's format/m);
    assert.match(run.stdout, /fix: shorten the longest descriptions/);
    const json = JSON.parse(
      (await runCli(["check", clean.url, "--json", "--max-tokens", "50", "--encoding", "cl100k_base"])).stdout,
    );
    assert.equal(json.tokens.encoding, "cl100k_base");
    assert.equal(json.worst, "error");
  });

  it("scores selection cases from a file, and calls the tools named", async () => {
    const cases = join(dir, "cases.json");
    writeFileSync(
      cases,
      JSON.stringify([
        { prompt: "list the orders of customer cus_9", expect: "list_orders" },
        { prompt: "who is user 42", expect: "get_user", forbid: ["list_orders"] },
      ]),
    );
    const run = await runCli(["check", clean.url, "--cases", cases, "--call", 'get_user={"id":"usr_42"}']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^selection \(2 cases, ranked by tool search\): top-1 100%, top-3 100%$/m);
    const messyRun = await runCli([
      "check",
      messy.url,
      "--json",
      "--call",
      'get_user={"id":"u1"}',
      "--call",
      'get_users={"id":"u2"}',
    ]);
    const report = JSON.parse(messyRun.stdout) as ToolCheckReport;
    assert.deepEqual(report.findings.filter((f) => f.rule === "output-schema").map((f) => f.tool), [
      "get_user",
      "get_users",
    ]);
  });

  it("checks a stdio server nobody here wrote: the official server-everything", { timeout: 60_000 }, async () => {
    const everything = fileURLToPath(
      new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
    );
    const run = await runCli(["check", "--json", "--", "node", everything, "stdio"], { timeoutMs: 40_000 });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as ToolCheckReport;
    assert.ok(report.tools.includes("echo") && report.tools.length >= 10, report.tools.join(", "));
    for (const cost of report.tokens.formats) {
      assert.equal(Object.values(cost.tools).reduce((a, b) => a + b, 0), cost.total);
    }
  });

  it("checks a tool list saved in a file, with no server: the official GitHub MCP server's", async () => {
    // { tools: [...] }, as tools/list answers
    const saved = fileURLToPath(new URL("../quality/fixtures/github-mcp-server-tools.json", import.meta.url));
    const run = await runCli(["check", saved, "--json", "--fail-on", "warning"]);
    assert.equal(run.code, 1, run.stderr); // its confusable pairs are warnings
    const report = JSON.parse(run.stdout) as ToolCheckReport;
    assert.equal(report.tools.length, 116);
    assert.equal(report.confusable.length, 22);
    const notAList = join(dir, "not-a-list.json");
    writeFileSync(notAList, JSON.stringify({ name: "x" }));
    const refused = await runCli(["check", notAList]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /not a tool list/);
  });

  // What the command line alone says is wrong is refused before connecting: tests/cli/args.test.ts.
  it("refuses what only the check can judge with exit 2: a cases file, a call", async () => {
    const wrong = [
      [["check", clean.url, "--cases", join(dir, "absent.json")], /--cases .*absent\.json/],
      [["check", clean.url, "--call", "nope"], /--call names "nope", which the server does not list/],
      [["check", clean.url, "--call", "get_user=[1]"], /--call takes <tool>=<JSON object>/],
    ] as const;
    for (const [args, message] of wrong) {
      const run = await runCli([...args]);
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
  });
});
