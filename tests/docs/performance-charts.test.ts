/**
 * The performance charts stay in step with the figures: every chart docs/performance.md shows is drawn from a
 * table bench/RESULTS.md has, with at least one bar, and the README's committed chart (docs/headline.svg) is the
 * one `docs/scripts/charts.mjs` draws from today's RESULTS.md, so a bench run that is written cannot leave it stale.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
// @ts-types="../../docs/scripts/charts.d.mts"
import { CHARTS, HEADLINE, svg, table } from "../../docs/scripts/charts.mjs";
import { ROOT } from "../helpers/process.ts";

const RESULTS = readFileSync(`${ROOT}bench/RESULTS.md`, "utf8");

describe("performance charts", () => {
  it("draws every chart docs/performance.md shows from a table of bench/RESULTS.md, each with bars", () => {
    const page = readFileSync(`${ROOT}docs/performance.md`, "utf8");
    for (const chart of CHARTS) {
      assert.ok(page.includes(`](/perf/${chart.file})`), `docs/performance.md shows ${chart.file}`);
      const drawn = svg(chart, table(RESULTS, chart.heading));
      assert.match(drawn, /<rect x="\d+(\.\d)?" y="\d+" width="[\d.]+" height="10"/, `${chart.file} has bars`);
    }
    for (const name of ["grpc", "scaling", "bundles", "coldstart"]) {
      assert.ok(CHARTS.some((c) => c.file === `${name}.svg`), `a ${name} chart`);
    }
  });

  it("keeps the README's chart the one RESULTS.md draws today", () => {
    const chart = CHARTS.find((c) => c.file === HEADLINE.chart)!;
    assert.ok(readFileSync(`${ROOT}README.md`, "utf8").includes("](docs/headline.svg)"), "the README shows it");
    assert.equal(
      readFileSync(HEADLINE.file, "utf8"),
      svg(chart, table(RESULTS, chart.heading)),
      "docs/headline.svg is stale: run `node docs/scripts/charts.mjs bench/RESULTS.md /tmp/perf --headline`",
    );
  });
});
