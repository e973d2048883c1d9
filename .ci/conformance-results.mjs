// Reads the result directory of one batched `conformance server -o DIR` run (one `server-<scenario>-<timestamp>/checks.json`
// per scenario) and prints, for each scenario named on the command line, one line:
//
//   <scenario> <ok|fail|missing> <checks passed> <checks failed> <warnings> <SKIPPED checks>
//
// and writes the lines worth showing on a failure to DIR/<scenario>.why. A batched run prints no per-scenario
// "Passed:" line, and its exit code covers only the scored scenarios, so .ci/conformance.sh takes the
// per-scenario verdict from here. The verdict applies the expected-failures baseline the way the suite's
// own --expected-failures check does for one scenario: a failing or warning check not in the baseline
// fails; a baseline entry that now passes (stale) fails too.
//
//   node .ci/conformance-results.mjs DIR BASELINE.yaml SCENARIO...
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "yaml";

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

const baseline = (parse(readFileSync(baselinePath, "utf8")) ?? {}).server ?? [];
const whole = new Set(baseline.filter((e) => !String(e).includes(":")).map(String));
const perCheck = new Map();
for (const entry of baseline.map(String).filter((e) => e.includes(":"))) {
  const at = entry.indexOf(":");
  const set = perCheck.get(entry.slice(0, at)) ?? new Set();
  set.add(entry.slice(at + 1));
  perCheck.set(entry.slice(0, at), set);
}
const bad = (c) => c.status === "FAILURE" || c.status === "WARNING";
// The suite keeps, per check id, the worst outcome (INFO lines all kept) before comparing with a baseline.
const worst = (checks) => {
  const rank = (s) => (s === "FAILURE" ? 3 : s === "WARNING" ? 2 : s === "SUCCESS" ? 1 : 0);
  const at = new Map();
  checks.forEach((c, i) => {
    if (c.status === "INFO") return;
    const prev = at.get(c.id);
    if (prev === undefined || rank(c.status) >= rank(checks[prev].status)) at.set(c.id, i);
  });
  return checks.filter((c, i) => c.status === "INFO" || at.get(c.id) === i);
};

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
  const count = (st) => checks.filter((c) => c.status === st).length;
  const unexpected = [];
  const stale = [];
  if (whole.has(s)) {
    if (!checks.some(bad)) stale.push(s);
  } else {
    const expected = perCheck.get(s) ?? new Set();
    const kept = worst(checks);
    for (const c of kept.filter(bad)) if (!expected.has(c.id)) unexpected.push(`${s}:${c.id}`);
    for (const id of expected) {
      if (kept.find((c) => c.id === id && c.status !== "INFO")?.status === "SUCCESS") stale.push(`${s}:${id}`);
    }
  }
  const why = [
    ...checks.filter(bad).flatMap((
      c,
    ) => [`[${c.id}] ${c.status} ${c.description}`, ...(c.errorMessage ? [`    Error: ${c.errorMessage}`] : [])]),
    ...unexpected.map((e) => `Unexpected failure (not in baseline): ${e}`),
    ...stale.map((e) => `Stale baseline entry (now passing): ${e}`),
  ];
  writeFileSync(join(dir, `${s.replace(/\//g, "_")}.why`), why.join("\n") + "\n");
  // The per-scenario log printed one line per check ("[id] STATUS description"); count those naming SKIPPED.
  const skips = checks.filter((c) => `[${c.id}] ${c.status} ${c.description}`.includes("SKIPPED")).length;
  const verdict = unexpected.length || stale.length ? "fail" : "ok";
  console.log(`${s} ${verdict} ${count("SUCCESS")} ${count("FAILURE")} ${count("WARNING")} ${skips}`);
}
