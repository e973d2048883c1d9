/**
 * The model lane of `checkTools()`: the selection cases asked of a model through a function the user passes, the
 * choices recorded to a file under the prompt and the tool list's hash, replayed offline with no function (as CI
 * runs it, without a key), and reported stale once a description changes. The function here stands in for a
 * provider call (the SDK calls none): it picks by a fixed table, as a recorded model would.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { checkTools, type ModelRequest, type SelectionCase } from "../../src/testing/mod.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

const shop = (searchDescription = "Searches the catalog for products by words in their name.") =>
  createServer({ name: "shop", version: "1.0.0" })
    .tool(
      defineTool("search_products").describe(searchDescription)
        .input(v.object({ query: v.pipe(v.string(), v.description("Words to find")) })).handle(() => []),
    )
    .tool(
      defineTool("get_product").describe("Gets one product by its SKU: price, stock and description.")
        .input(v.object({ sku: v.pipe(v.string(), v.description("The product's SKU")) })).handle(() => ({})),
    );

const CASES: SelectionCase[] = [
  { prompt: "find mugs", expect: "search_products", arguments: { query: "mugs" } },
  { prompt: "price of SKU 7", expect: "get_product", arguments: { sku: "7" } },
  { prompt: "is SKU 9 in stock", expect: "get_product", forbid: ["search_products"] },
];

/** A model's answers, by prompt: the third is wrong. */
const ANSWERS: Record<string, { name: string; arguments: Record<string, unknown> } | undefined> = {
  "find mugs": { name: "search_products", arguments: { query: "mugs" } },
  "price of SKU 7": { name: "get_product", arguments: { sku: "7" } },
  "is SKU 9 in stock": { name: "search_products", arguments: { query: "SKU 9" } },
};

describe("checkTools(): the model lane", () => {
  const dir = scratchDir("mcplite-model-lane-");

  it("asks the function for each case, records the choices, and replays them without it", async () => {
    const recordings = join(dir, "recorded.json");
    const asked: ModelRequest[] = [];
    const choose = (request: ModelRequest) => {
      asked.push(request);
      return Promise.resolve(ANSWERS[request.prompt]);
    };
    const first = await checkTools(shop(), { cases: CASES, model: { recordings, choose } });
    assert.deepEqual(asked.map((r) => r.prompt), CASES.map((c) => c.prompt));
    assert.deepEqual(asked[0].tools.map((t) => t.name), ["search_products", "get_product"]);
    const model = first.model!;
    assert.deepEqual(model.results.map((r) => [r.source, r.passed]), [["asked", true], ["asked", true], [
      "asked",
      false,
    ]]);
    assert.equal(model.accuracy, 2 / 3);
    assert.match(model.toolList, /^[0-9a-f]{64}$/);
    const wrong = first.findings.filter((f) => f.rule === "model");
    assert.equal(wrong.length, 1);
    assert.match(
      wrong[0].message,
      /for "is SKU 9 in stock" the model called "search_products" with \{"query":"SKU 9"\}, not "get_product"/,
    );
    const file = JSON.parse(readFileSync(recordings, "utf8"));
    assert.equal(file.version, 1);
    assert.deepEqual(
      file.choices.map((c: { prompt: string; toolList: string }) => [c.prompt, c.toolList]),
      CASES.map((c) => [c.prompt, model.toolList]),
    );

    // CI: no function, no key: the same results from the file, and the function is never needed.
    const replayed = await checkTools(shop(), { cases: CASES, model: { recordings } });
    assert.deepEqual(replayed.model!.results.map((r) => [r.source, r.passed]), [
      ["recorded", true],
      ["recorded", true],
      ["recorded", false],
    ]);
    assert.deepEqual(replayed.model!.stale, []);
    // Asked again with the function, recorded choices are replayed, not asked.
    asked.length = 0;
    await checkTools(shop(), { cases: CASES, model: { recordings, choose } });
    assert.deepEqual(asked, []);
  });

  it("says when the tool list changed since the choices were recorded, and records again when asked", async () => {
    const recordings = join(dir, "stale.json");
    const choose = (request: ModelRequest) => Promise.resolve(ANSWERS[request.prompt]);
    await checkTools(shop(), { cases: CASES, model: { recordings, choose } });
    const changed = shop("Searches the catalog for products by words in their name or description.");
    const stale = await checkTools(changed, { cases: CASES, model: { recordings } });
    assert.deepEqual(stale.model!.stale, CASES.map((c) => c.prompt));
    assert.deepEqual(stale.model!.results.map((r) => r.source), ["missing", "missing", "missing"]);
    assert.equal(stale.findings.filter((f) => f.rule === "model" && /another tool list/.test(f.message)).length, 3);
    // The stale choices stay in the file until recorded again.
    assert.equal(JSON.parse(readFileSync(recordings, "utf8")).choices.length, 3);
    const recorded = await checkTools(changed, { cases: CASES, model: { recordings, choose } });
    assert.deepEqual(recorded.model!.stale, []);
    assert.deepEqual(recorded.model!.results.map((r) => r.source), ["asked", "asked", "asked"]);
    const again = await checkTools(changed, { cases: CASES, model: { recordings } });
    assert.deepEqual(again.model!.results.map((r) => r.source), ["recorded", "recorded", "recorded"]);
  });

  it("reports a case never recorded, a model that called no tool, and refuses a file that is not recordings", async () => {
    const recordings = join(dir, "none.json");
    const missing = await checkTools(shop(), { cases: CASES.slice(0, 1), model: { recordings } });
    assert.deepEqual(missing.model!.results, [{
      prompt: "find mugs",
      expect: "search_products",
      source: "missing",
      passed: false,
    }]);
    assert.match(missing.findings.find((f) => f.rule === "model")!.message, /has no recorded choice/);
    const none = await checkTools(shop(), {
      cases: CASES.slice(0, 1),
      model: { recordings, choose: () => Promise.resolve(undefined) },
    });
    assert.deepEqual(none.model!.results[0].chosen, null);
    assert.match(none.findings.find((f) => f.rule === "model")!.message, /the model called no tool/);
    const other = join(dir, "other.json");
    writeFileSync(other, JSON.stringify({ cases: [] }));
    await assert.rejects(
      checkTools(shop(), { cases: CASES, model: { recordings: other } }),
      /is not a model lane's recordings/,
    );
  });
});
