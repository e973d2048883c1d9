// Sums up one run of the official MCP conformance suite (.ci/conformance.sh and .ci/conformance-client.sh with
// CONFORMANCE_RESULTS set: one JSON line per scenario, .ci/conformance-record.sh) into the figures the docs site's
// conformance page shows: per side and revision, the scenarios passed of those run (scored, unscored, extensions)
// and the checks, with the suite's version, the SDK's, the commit and the date. This is the evidence SDK listings
// compute tiers from (draft SEP-3405). CI runs it after the suites, so a run that records nothing or a failure fails;
// the release workflow writes its output into the site.
//
//   node docs/scripts/conformance.mjs <results.jsonl> [--out docs/public/conformance.json]
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const [input, flag, out] = process.argv.slice(2);
if (input === undefined || (flag !== undefined && (flag !== "--out" || out === undefined))) {
  console.error("usage: node docs/scripts/conformance.mjs <results.jsonl> [--out <file.json>]");
  process.exit(2);
}

const lines = readFileSync(input, "utf8").split("\n").filter((line) => line.trim() !== "");
const results = lines.map((line) => JSON.parse(line));
const version = (file) => JSON.parse(readFileSync(join(ROOT, file), "utf8")).version;
let commit = process.env.GITHUB_SHA;
try {
  commit ??= execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
} catch {
  // not a git checkout: the commit stays unknown
}

/** `{ side: { revision: { kind: { passed, run, checks } } } }`, in the order the suites ran them. */
const sides = {};
// A scenario that checked nothing (no check succeeded) never counts as passed, whatever its script recorded.
const passed = (r) => r.result === "pass" && r.checks.passed > 0;
for (const r of results) {
  const { side, revision, kind, result, checks } = r;
  const tally = ((sides[side] ??= {})[revision] ??= {})[kind] ??= { passed: 0, run: 0, expectedFailures: 0, checks: 0 };
  tally.run++;
  if (passed(r)) tally.passed++;
  if (result === "xfail") tally.expectedFailures++;
  tally.checks += checks.passed;
}
const summary = {
  suite: `@modelcontextprotocol/conformance ${version("node_modules/@modelcontextprotocol/conformance/package.json")}`,
  sdk: `@mcplite/sdk ${version("package.json")}`,
  commit: commit ?? null,
  date: new Date().toISOString().slice(0, 10),
  sides,
  failed: results.filter((r) => r.result !== "xfail" && !passed(r)).map((r) => `${r.side} ${r.revision} ${r.scenario}`),
};

for (const [side, revisions] of Object.entries(sides)) {
  for (const [revision, kinds] of Object.entries(revisions)) {
    const parts = Object.entries(kinds).map(([kind, t]) =>
      `${kind} ${t.passed}/${t.run}${t.expectedFailures ? ` (${t.expectedFailures} expected to fail)` : ""}`
    );
    const checks = Object.values(kinds).reduce((sum, t) => sum + t.checks, 0);
    console.log(`conformance ${side} ${revision}: ${parts.join(", ")}; ${checks} checks passed`);
  }
}
if (out !== undefined) writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
if (results.length === 0 || sides.server === undefined || sides.client === undefined) {
  console.error(`${input}: no results of ${sides.server === undefined ? "the server" : "the client"} suite`);
  process.exit(1);
}
if (summary.failed.length > 0) {
  console.error(`failed: ${summary.failed.join(", ")}`);
  process.exit(1);
}
