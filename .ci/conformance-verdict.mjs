// One scenario's verdict from its checks (a `checks.json` of the official MCP conformance suite) and the
// expected-failures baseline (.ci/conformance-expected-failures.yaml), for .ci/conformance-results.mjs.
//
// The suite's own --expected-failures check passes a scenario that has no FAILURE and no WARNING, so a scenario
// that checked nothing (no check at all, or only INFO and SKIPPED ones) passes there. Here it fails: a scenario
// passes only on a check that succeeded. A baseline entry for the whole scenario is how one that cannot check
// anything yet is run and reported as an expected failure ("xfail"), with its reason written beside it; once it
// checks something and passes, the entry is stale and fails the run, as is an entry for one check that now passes.
// Plain JavaScript for Node, as the script that imports it.

/**
 * The baseline's `server` (or `client`) list, split into whole scenarios and single checks (`scenario:check-id`).
 *
 * @param {unknown[]} entries The list, as parsed from the YAML file.
 * @returns {{ whole: Set<string>, perCheck: Map<string, Set<string>> }}
 */
export function baselineOf(entries) {
  const whole = new Set();
  const perCheck = new Map();
  for (const entry of entries.map(String)) {
    const at = entry.indexOf(":");
    if (at === -1) {
      whole.add(entry);
      continue;
    }
    const set = perCheck.get(entry.slice(0, at)) ?? new Set();
    set.add(entry.slice(at + 1));
    perCheck.set(entry.slice(0, at), set);
  }
  return { whole, perCheck };
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

/**
 * Judges one scenario.
 *
 * @param {string} scenario The scenario's name.
 * @param {{ id: string, status: string, description: string, errorMessage?: string }[]} checks Its checks.
 * @param {{ whole: Set<string>, perCheck: Map<string, Set<string>> }} baseline From {@link baselineOf}.
 * @returns {{ verdict: "ok" | "fail" | "xfail", passed: number, failed: number, warnings: number,
 *   skipped: number, why: string[] }} The verdict, the check counts, and the lines worth showing about it.
 */
export function scenarioVerdict(scenario, checks, baseline) {
  const count = (status) => checks.filter((c) => c.status === status).length;
  const passed = count("SUCCESS");
  // The per-scenario log printed one line per check ("[id] STATUS description"); count those naming SKIPPED.
  const skipped = checks.filter((c) => `[${c.id}] ${c.status} ${c.description}`.includes("SKIPPED")).length;
  const unexpected = [];
  const stale = [];
  let expected = false;
  const empty = passed === 0 && !checks.some(bad);
  if (baseline.whole.has(scenario)) {
    if (checks.some(bad) || empty) expected = true;
    else stale.push(scenario);
  } else {
    const listed = baseline.perCheck.get(scenario) ?? new Set();
    const kept = worst(checks);
    for (const c of kept.filter(bad)) if (!listed.has(c.id)) unexpected.push(`${scenario}:${c.id}`);
    for (const id of listed) {
      if (kept.find((c) => c.id === id && c.status !== "INFO")?.status === "SUCCESS") stale.push(`${scenario}:${id}`);
    }
  }
  const why = [
    ...checks.filter((c) => bad(c) || c.status === "SKIPPED").flatMap((c) => [
      `[${c.id}] ${c.status} ${c.description}`,
      ...(c.errorMessage ? [`    Error: ${c.errorMessage}`] : []),
    ]),
    ...(empty && !baseline.whole.has(scenario)
      ? [`Checked nothing (${checks.length} check(s), none succeeded): a scenario passes only on a check that did`]
      : []),
    ...unexpected.map((e) => `Unexpected failure (not in baseline): ${e}`),
    ...stale.map((e) => `Stale baseline entry (now passing): ${e}`),
  ];
  const verdict = unexpected.length || stale.length || (empty && !expected) ? "fail" : expected ? "xfail" : "ok";
  return { verdict, passed, failed: count("FAILURE"), warnings: count("WARNING"), skipped, why };
}
