/**
 * The rules of the public surface, checked over the API report (api/), the one record of what each entry
 * point exports: `npm run api:check` fails when the code differs from the report, and this file fails when
 * the report breaks a rule. Growing the surface is a decision that shows as a diff of the report; no list
 * of names is kept here. Values (functions, classes, constants) are budgeted: each costs bundle bytes and a
 * promise. Types are not counted: they cost no byte and name what users write; `npm run doc:lint` (deno doc
 * --lint, a CI fast check) fails on any exported type without JSDoc. Why: docs/contributing.md, House rules.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { apiReport, type ReportedEntryPoint } from "./helpers/api-report.ts";
import { ROOT } from "./helpers/process.ts";

const report = apiReport();
const entry = (subpath: string): ReportedEntryPoint => report.find((e) => e.subpath === subpath)!;

/** Kinds that are values only: a name of these kinds exists at run time unless exported as `type`. */
const VALUE_KINDS = new Set(["function", "const", "let", "var"]);

/**
 * The values an entry point exports: the names its module has at run time (each of them in its report, as
 * the second test checks). A class exported with `export type` (`Server`, the builders) is a type there.
 */
const valuesOf = async (e: ReportedEntryPoint): Promise<string[]> =>
  e.subpath === "./cli" ? [] : Object.keys(await import(ROOT + e.source));

/** At most this many values across the entry points (issue 84: 132 when the budget was set). */
const VALUES = 150;

describe("the public surface, as the API report records it", () => {
  it("has one report file per entry point jsr.json exports, and no other", () => {
    const files = readdirSync(`${ROOT}api`).filter((name) => name.endsWith(".api.md")).map((name) => `api/${name}`);
    assert.deepEqual(files.sort(), report.map((e) => e.file).sort());
  });

  for (const e of report) {
    it(`${e.specifier}: the report's names are what the module exports at run time`, async () => {
      // Each declaration read back from the report: the count its header states.
      assert.equal(e.names.size, e.stated, `${e.file} states ${e.stated} names, its declarations name ${e.names.size}`);
      // Importing the CLI runs it: its report says it exports nothing (and its source has no export).
      if (e.subpath === "./cli") {
        assert.equal(e.stated, 0);
        assert.doesNotMatch(readFileSync(ROOT + e.source, "utf8"), /^export /m);
        return;
      }
      const runtime = Object.keys(await import(ROOT + e.source)).sort();
      const unreported = runtime.filter((name) => !e.names.has(name));
      assert.deepEqual(unreported, [], `${e.specifier} exports names its report lacks: npm run api:report`);
      const values = [...e.names].filter(([, kinds]) => [...kinds].some((kind) => VALUE_KINDS.has(kind)));
      const missing = values.map(([name]) => name).filter((name) => !runtime.includes(name));
      assert.deepEqual(missing, [], `${e.file} records values ${e.specifier} does not export`);
    });
  }

  it("exports no name from two entry points (but ./lite, the root's variant, and the runtime entries' serve)", () => {
    const seen = new Map<string, string>();
    for (const e of report.filter((e) => e.subpath !== "./lite")) {
      for (const name of e.names.keys()) {
        if ((e.subpath === "./deno" || e.subpath === "./bun") && name === "serve") continue; // the runtime's, named
        assert.equal(seen.get(name), undefined, `${name} is exported by ${seen.get(name)} and ${e.specifier}`);
        seen.set(name, e.specifier);
      }
    }
  });

  it("keeps ./types to types: importing it loads no code and gives no value", async () => {
    assert.deepEqual(Object.keys(await import(`${ROOT}${entry("./types").source}`)), []);
    // `export type` only: a type-only re-export is erased, so importing the entry loads no module.
    const text = readFileSync(ROOT + entry("./types").source, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    assert.deepEqual(text.match(/^(?:export|import)\b(?!\s+type\b).*$/gm) ?? [], []);
    assert.ok(entry("./types").names.size > 0);
  });

  it("keeps ./binding to the binding contract (5 values) and ./client to what a client user touches (10)", async () => {
    // ./binding: the contract is types; its values are the few a binding calls (4 when values were budgeted).
    const binding = await valuesOf(entry("./binding"));
    assert.ok(binding.length <= 5, `./binding exports ${binding.length} values: ${binding.join(", ")}`);
    // ./client: the client, its factory and the helpers a client user calls (7 when values were budgeted); the
    // authorization flows and each other wire's transport have entries of their own (./client/auth, ./client/grpc, …).
    const client = await valuesOf(entry("./client"));
    assert.ok(client.length <= 10, `./client exports ${client.length} values: ${client.join(", ")}`);
    const internals = ["Registry", "Runtime", "Continuations", "runHandler", "runRequest", "CacheSlot", "NO_HOST"];
    for (const internal of [...internals, "withCaller"]) {
      assert.ok(!entry("./binding").names.has(internal), `./binding exports ${internal}`);
    }
  });

  it("names none of the server's internals: no public name says continuation, job, registry, slot or runtime", () => {
    const internal = report.flatMap((e) =>
      [...e.names.keys()].filter((name) => /continuation|job|registry|slot|runtime/i.test(name)).map((name) =>
        `${e.specifier}: ${name}`
      )
    );
    assert.deepEqual(internal, []);
  });

  it("gives users no mutable `~` member: what the package keeps on a value it hands out is readonly", () => {
    const mutable = report.flatMap((e) =>
      readFileSync(ROOT + e.file, "utf8").split("\n").filter((line) => /^\s+"~[^"]+"\??:/.test(line)).map((line) =>
        `${e.file}: ${line.trim()}`
      )
    );
    assert.deepEqual(mutable, []);
  });

  // Issue 84: values are budgeted, counted once per entry point that exports them (./lite's too: each is a name a
  // user imports and a promise kept); types are free. A new value is a decision: pay for it by cutting one nobody
  // needs, or say in review why the budget grows; never cut a type to pay for it.
  it(`keeps the values of all entry points together to at most ${VALUES}`, async () => {
    const values = await Promise.all(report.map(async (e) => (await valuesOf(e)).length));
    const total = values.reduce((sum, n) => sum + n, 0);
    assert.ok(total <= VALUES, `the entry points export ${total} values (a budget of ${VALUES})`);
  });

  // 30: what a tool author calls (defineTool() and its kin, createServer(), serve(), the result helpers, the
  // default bindings; 23 when values were budgeted), its types beside them uncounted.
  it("keeps the root entry point to what a tool author uses (at most 30 values)", async () => {
    const root = await valuesOf(entry("."));
    assert.ok(root.length <= 30, `the root exports ${root.length} values: ${root.join(", ")}`);
  });

  it("makes ./lite the root's values (its types stay in the root), with a createServer of its own", async () => {
    const values = Object.keys(await import(ROOT + entry(".").source));
    const missing = values.filter((name) => !entry("./lite").names.has(name));
    assert.deepEqual(missing, [], "./lite lacks values the root exports");
    const repeated = [...entry("./lite").names.keys()].filter((name) =>
      entry(".").names.has(name) && !values.includes(name)
    );
    assert.deepEqual(repeated, [], "./lite repeats types the root exports");
    const createServer = (file: string) => readFileSync(ROOT + file, "utf8").match(/^function createServer\(.*$/m)?.[0];
    assert.ok(createServer(entry("./lite").file));
    assert.notEqual(createServer(entry("./lite").file), createServer(entry(".").file));
  });
});
