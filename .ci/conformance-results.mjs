// Reads the result directory of one batched `conformance server -o DIR` run (one `server-<scenario>-<timestamp>/checks.json`
// per scenario) and prints, for each scenario named on the command line, one line:
//
//   <scenario> <ok|fail|xfail|missing> <checks passed> <checks failed> <warnings> <SKIPPED checks>
//
// and writes the lines worth showing on a failure to DIR/<scenario>.why. A batched run prints no per-scenario
// "Passed:" line, and its exit code covers only the scored scenarios, so .ci/conformance.sh takes the
// per-scenario verdict from here (.ci/conformance-verdict.mjs): the expected-failures baseline applied as the
// suite's own --expected-failures check does for one scenario, and besides, a scenario that checked nothing
// (none of its checks succeeded: skipped, or only INFO) fails unless the baseline lists it whole (xfail).
//
//   node .ci/conformance-results.mjs DIR BASELINE.yaml SCENARIO...
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "yaml";
import { baselineOf, scenarioVerdict } from "./conformance-verdict.mjs";

const [dir, baselinePath, ...scenarios] = process.argv.slice(2);

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

const baseline = baselineOf((parse(readFileSync(baselinePath, "utf8")) ?? {}).server ?? []);

for (const s of scenarios) {
  const checks = found.get(s);
  if (!Array.isArray(checks)) {
    writeFileSync(
      join(dir, `${s.replace(/\//g, "_")}.why`),
      "no checks.json: the scenario did not finish (the run timed out or crashed)\n",
    );
    console.log(`${s} missing 0 0 0 0`);
    continue;
  }
  const { verdict, passed, failed, warnings, skipped, why } = scenarioVerdict(s, checks, baseline);
  writeFileSync(join(dir, `${s.replace(/\//g, "_")}.why`), why.join("\n") + "\n");
  console.log(`${s} ${verdict} ${passed} ${failed} ${warnings} ${skipped}`);
}
