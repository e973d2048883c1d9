/**
 * `mcplite … -- <command>`: the CLI launches a stdio server (examples/stdio.ts, on the runtime running
 * the tests) and lists, inspects and calls it; a failing tool exits 1; a server that starts slowly is waited for.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { runtimeCommand } from "../helpers/stdio.ts";
import { runCli } from "./cli-helpers.ts";

const server = runtimeCommand(fileURLToPath(new URL("../../examples/stdio.ts", import.meta.url)));
const target = ["--", server.command, ...server.args];

describe("mcplite with a stdio server", () => {
  it("lists the tools", async () => {
    const run = await runCli(["list", ...target]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^add_note\s+Stores a note under a title$/m);
    assert.match(run.stdout, /^wait\s+/m);
  });

  it("inspects it: server info, resources and prompts", async () => {
    const run = await runCli(["inspect", ...target]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /notes 1\.0\.0/);
    assert.match(run.stdout, /summarize/);
  });

  it("calls a tool with progress (plain lines on a non-terminal stderr), and exits 1 on isError", async () => {
    const ok = await runCli(["call", "--json", "count_words", ...target]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout).structuredContent ?? JSON.parse(ok.stdout), { notes: 1, words: 8 });
    assert.match(ok.stderr, /progress 1\/1/);
    const failed = await runCli(["call", "read_note", "--arg", "title=none", ...target]);
    assert.equal(failed.code, 1);
    assert.match(failed.stdout + failed.stderr, /No note titled "none"/);
  });

  it("calls a tool that requires a task (server-everything, MCP 2025-11-25 Tasks) and prints its result", async () => {
    const everything = fileURLToPath(
      new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
    );
    const run = await runCli(
      ["call", "simulate-research-query", "--arg", "topic=octopus", "--", "node", everything, "stdio"],
      { timeoutMs: 25_000 },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^# Research Report: octopus$/m);
  });

  it("calls a tool of a server that reads stdin only after the probe's 5 s wait (2026-07-28, late discover)", {
    timeout: 60_000,
  }, async () => {
    const slow = runtimeCommand(fileURLToPath(new URL("../helpers/slow-stdio-server.ts", import.meta.url)));
    const run = await runCli(["call", "seen", "--", slow.command, ...slow.args, "6500", "2026"], { timeoutMs: 45_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^server\/discover initialize tools\/list tools\/call$/m);
  });
});
