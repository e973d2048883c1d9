/**
 * The conformance tally (.ci/conformance-results.mjs, which .ci/conformance.sh reads each scenario's verdict from,
 * and docs/scripts/conformance.mjs, which sums a run up for the docs site) counts a scenario as passed only when
 * one of its checks succeeded: a scenario that checked nothing (no check, only INFO lines, or skipped by the suite)
 * fails the run, unless the expected-failures baseline lists it whole, and then it is an expected failure, never
 * a pass (docs/conformance.md, "What may fail"). On the client side (.ci/conformance-client.sh) a scenario also fails
 * when its client did not finish, as a lone run of the suite's would: it timed out, never ran, or exited non-zero
 * where the scenario does not expect the client to give up.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ROOT, run } from "../helpers/process.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import { runtimeCommand } from "../helpers/stdio.ts";

/** Runs a script of the repository on this test's runtime. */
function script(file: string, args: string[]) {
  const { command, args: before } = runtimeCommand(join(ROOT, file));
  return run(command, [...before, ...args], 60_000);
}

/** A result directory as `conformance server -o DIR` writes it: one `server-<scenario>-<time>/checks.json` each. */
function results(scenarios: Record<string, { id: string; status: string; description: string }[]>): string {
  const dir = scratchDir("conformance-tally-");
  for (const [name, checks] of Object.entries(scenarios)) {
    const at = join(dir, `server-${name}-2026-01-02T03-04-05-678Z`);
    mkdirSync(at);
    writeFileSync(join(at, "checks.json"), JSON.stringify(checks));
  }
  return dir;
}

const success = { id: "server-initialize", status: "SUCCESS", description: "Server responds to initialize" };
const info = { id: "server-sse-content-type", status: "INFO", description: "Server returned JSON" };
const skipped = { id: "tasks-status-notifications", status: "SKIPPED", description: "pending a rewrite" };

/**
 * A result directory as `conformance client -o DIR` writes it (`<scenario>-<time>/checks.json`, nested for `auth/…`),
 * and the outcomes .ci/conformance-client-slot.sh records beside it (`none`: the client never ran).
 */
function clientResults(scenarios: Record<string, { checks: typeof success[]; client: string }>) {
  const dir = scratchDir("conformance-client-tally-");
  const status = join(dir, "status");
  mkdirSync(status);
  for (const [name, { checks, client }] of Object.entries(scenarios)) {
    const at = join(dir, `${name}-2026-01-02T03-04-05-678Z`);
    mkdirSync(at, { recursive: true });
    writeFileSync(join(at, "checks.json"), JSON.stringify(checks));
    if (client !== "none") writeFileSync(join(status, `${name.replace(/\//g, "_")}.status`), `${client}\n`);
  }
  return { dir, status };
}

describe("the conformance tally", () => {
  it("fails a scenario with zero checks, one with only INFO lines, and one the suite skipped", async () => {
    const dir = results({ good: [success], none: [], informed: [info], skipped: [skipped] });
    const baseline = join(dir, "baseline.yaml");
    writeFileSync(baseline, "server: []\nclient: []\n");
    const { code, stdout, stderr } = await script(".ci/conformance-results.mjs", [
      dir,
      baseline,
      "good",
      "none",
      "informed",
      "skipped",
    ]);
    assert.equal(code, 0, stderr);
    assert.deepEqual(stdout.trim().split("\n"), [
      "good ok 1 0 0 0",
      "none fail 0 0 0 0",
      "informed fail 0 0 0 0",
      "skipped fail 0 0 0 1",
    ]);
  });

  it("reports a scenario the baseline lists whole as an expected failure while it checks nothing, stale once it passes", async () => {
    const dir = results({ skipped: [skipped], fixed: [success] });
    const baseline = join(dir, "baseline.yaml");
    writeFileSync(baseline, "server:\n  - skipped\n  - fixed\nclient: []\n");
    const { code, stdout, stderr } = await script(".ci/conformance-results.mjs", [dir, baseline, "skipped", "fixed"]);
    assert.equal(code, 0, stderr);
    assert.deepEqual(stdout.trim().split("\n"), ["skipped xfail 0 0 0 1", "fixed fail 1 0 0 0"]);
  });

  it("fails a client scenario whose client timed out, never ran, or gave up where the scenario does not expect it", async () => {
    const { dir, status } = clientResults({
      initialize: { checks: [success], client: "exited 0" },
      tools_call: { checks: [success], client: "exited 1" },
      // The suite lets the client give up here (allowClientError): it should refuse the mismatched resource.
      "auth/resource-mismatch": { checks: [success], client: "exited 1" },
      "auth/metadata-default": { checks: [success], client: "timed-out 30" },
      "sse-retry": { checks: [success], client: "none" },
      "request-metadata": { checks: [], client: "exited 0" },
    });
    const baseline = join(dir, "baseline.yaml");
    writeFileSync(baseline, "server: []\nclient: []\n");
    const { code, stdout, stderr } = await script(".ci/conformance-results.mjs", [
      "--client",
      status,
      dir,
      baseline,
      "initialize",
      "tools_call",
      "auth/resource-mismatch",
      "auth/metadata-default",
      "sse-retry",
      "request-metadata",
      "http-standard-headers",
    ]);
    assert.equal(code, 0, stderr);
    assert.deepEqual(stdout.trim().split("\n"), [
      "initialize ok 1 0 0 0 0",
      "tools_call fail 1 0 0 0 1",
      "auth/resource-mismatch ok 1 0 0 0 1",
      "auth/metadata-default fail 1 0 0 0 timeout",
      "sse-retry fail 1 0 0 0 none",
      "request-metadata fail 0 0 0 0 0",
      "http-standard-headers missing 0 0 0 0 none",
    ]);
    assert.match(readFileSync(join(dir, "tools_call.why"), "utf8"), /exited with code 1/);
    assert.match(readFileSync(join(dir, "auth_metadata-default.why"), "utf8"), /timed out after 30 s/);
  });

  it("never sums a recorded pass that checked nothing as passed, in the figures the docs site shows", async () => {
    const dir = scratchDir("conformance-summary-");
    const jsonl = join(dir, "results.jsonl");
    const line = (side: string, scenario: string, result: string, passed: number) =>
      JSON.stringify({
        side,
        revision: "2025-11-25",
        scenario,
        kind: "unscored",
        result,
        checks: { passed, failed: 0, warnings: 0 },
      });
    writeFileSync(
      jsonl,
      [
        line("server", "server-initialize", "pass", 3),
        line("server", "server-sse-polling", "pass", 0),
        line("server", "tasks-status-notifications", "xfail", 0),
        line("client", "initialize", "pass", 2),
      ].join("\n") + "\n",
    );
    const { code, stdout, stderr } = await script("docs/scripts/conformance.mjs", [jsonl]);
    assert.equal(code, 1, stdout);
    assert.match(stdout, /conformance server 2025-11-25: unscored 1\/3 \(1 expected to fail\); 3 checks passed/);
    assert.match(stderr, /failed: server 2025-11-25 server-sse-polling$/m);
  });
});
