// Reads the result directory of one batched `conformance server|client --requirements REV -o DIR` run (one
// `[server-]<scenario>-<timestamp>/checks.json` per scenario) and prints, for each scenario named on the command line:
//
//   <scenario> <ok|fail|xfail|missing> <checks passed> <checks failed> <warnings> <SKIPPED checks> [<client outcome>]
//
// and writes the lines worth showing on a failure to DIR/<scenario>.why. A batched run prints no per-scenario
// "Passed:" line, and its exit code covers only the scored scenarios, so .ci/conformance.sh and
// .ci/conformance-client.sh take the per-scenario verdict from here (.ci/conformance-verdict.mjs): the baseline
// applied as the suite's own --expected-failures check does for one scenario, and besides, a scenario that checked
// nothing (none of its checks succeeded: skipped, or only INFO) fails unless the baseline lists it whole (xfail).
// With --client STATUSDIR (the client outcomes .ci/conformance-client-slot.sh wrote), the baseline's `client` list
// applies and, as a lone `conformance client` run does, a client that timed out, never ran, or exited non-zero
// where the scenario does not expect it to give up fails the scenario.
//
//   node .ci/conformance-results.mjs [--client STATUSDIR] DIR BASELINE.yaml SCENARIO...
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { baselineOf, scenarioVerdict } from "./conformance-verdict.mjs";

const args = process.argv.slice(2);
const statusDir = args[0] === "--client" ? args.splice(0, 2)[1] : undefined;
const [dir, baselinePath, ...scenarios] = args;

// Scenario name -> checks, from every checks.json under dir (a name with "/" makes nested folders).
const found = new Map();
const walk = (d) => {
  for (const name of readdirSync(d)) {
    const path = join(d, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name === "checks.json") {
      const scenario = relative(dir, d).replace(/\\/g, "/").replace(/^server-/, "").replace(
        /-\d{4}-\d{2}-\d{2}T[\d-]+Z$/,
        "",
      );
      try {
        found.set(scenario, JSON.parse(readFileSync(path, "utf8")));
      } catch {
        found.set(scenario, null);
      }
    }
  }
};
walk(dir);

const side = statusDir === undefined ? "server" : "client";
const baseline = baselineOf((parse(readFileSync(baselinePath, "utf8")) ?? {})[side] ?? []);
const allowed = statusDir === undefined ? new Set() : clientErrorsAllowed();

for (const s of scenarios) {
  const checks = found.get(s);
  if (!Array.isArray(checks)) {
    writeFileSync(
      join(dir, `${s.replace(/\//g, "_")}.why`),
      "no checks.json: the scenario did not finish (the run timed out or crashed)\n",
    );
    console.log(`${s} missing 0 0 0 0${statusDir === undefined ? "" : ` ${clientOutcome(s).outcome}`}`);
    continue;
  }
  let { verdict, passed, failed, warnings, skipped, why } = scenarioVerdict(s, checks, baseline);
  let outcome = "";
  if (statusDir !== undefined) {
    const client = clientOutcome(s);
    outcome = ` ${client.outcome}`;
    if (client.failure !== undefined) [verdict, why] = ["fail", [...why, client.failure]];
  }
  writeFileSync(join(dir, `${s.replace(/\//g, "_")}.why`), why.join("\n") + "\n");
  console.log(`${s} ${verdict} ${passed} ${failed} ${warnings} ${skipped}${outcome}`);
}

/** The client's outcome in one scenario ("exited N", "timed-out S" or "none"), and why it fails it, if it does. */
function clientOutcome(scenario) {
  let status;
  try {
    status = readFileSync(join(statusDir, `${scenario.replace(/\//g, "_")}.status`), "utf8").trim();
  } catch {
    return { outcome: "none", failure: "The client did not run to its end (no outcome recorded)" };
  }
  const [what, value] = status.split(" ");
  if (what === "timed-out") return { outcome: "timeout", failure: `The client timed out after ${value} s` };
  if (value === "0" || allowed.has(scenario)) return { outcome: value };
  return { outcome: value, failure: `The client exited with code ${value}, which this scenario does not expect` };
}

/**
 * The client scenarios in which the client is expected to give up (exit non-zero): their `allowClientError`, read
 * from the suite's bundle, which a batched run does not report.
 */
function clientErrorsAllowed() {
  const bundle = readFileSync(
    join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules/@modelcontextprotocol/conformance/dist/index.js"),
    "utf8",
  );
  const names = [...bundle.matchAll(/this\.name=`([^`]+)`(?:(?!constructor\().)*?this\.allowClientError=!0/gs)]
    .map((m) => m[1]);
  if (names.length === 0) {
    console.error("no scenario of the suite's bundle allows a client error: its layout changed; update this reader");
    process.exit(2);
  }
  return new Set(names);
}
