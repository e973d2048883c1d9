/**
 * docs/public-api.md says what each entry point exports; the API report (api/) is the record. The page
 * cannot say what is false: its table of counts is the report's, a count written in its prose is the
 * report's, and every name it puts under an entry point (a section whose heading names the entry point)
 * is exported by that entry point, or by the one named right after it: `Binding` (in `@mcplite/sdk`).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { TABLE_END, TABLE_START } from "../../tools/api-report/public-api-page.ts";
import { apiReport } from "../helpers/api-report.ts";
import { ROOT } from "../helpers/process.ts";

const PAGE = "docs/public-api.md";
const page = readFileSync(ROOT + PAGE, "utf8");
const report = apiReport();
const bySpecifier = new Map(report.map((e) => [e.specifier, e]));

const tableStart = page.indexOf(TABLE_START);
const tableEnd = page.indexOf(TABLE_END);
/** The page without its generated table and without code blocks (they run elsewhere: tests/docs/). */
const prose = (page.slice(0, tableStart) + page.slice(tableEnd)).replace(/^```[\s\S]*?^```$/gm, "");

/** The sections whose heading names entry points: the entry points, and the text up to the next heading. */
function entrySections(): { heading: string; entries: string[]; body: string }[] {
  const sections: { heading: string; entries: string[]; body: string }[] = [];
  const headings = [...prose.matchAll(/^#{2,3} (.*)$/gm)];
  headings.forEach((heading, i) => {
    const entries = [...heading[1].matchAll(/`(@mcplite\/sdk(?:\/[\w/-]+)?)`/g)].map((m) => m[1]);
    if (entries.length === 0) return;
    const end = headings[i + 1]?.index ?? prose.length;
    sections.push({ heading: heading[1], entries, body: prose.slice(heading.index! + heading[0].length, end) });
  });
  return sections;
}

describe("docs/public-api.md against the API report", () => {
  it("states each entry point's count of names as the report does, in jsr.json's order", () => {
    assert.ok(tableStart >= 0 && tableEnd > tableStart, `${PAGE} keeps the generated table between its markers`);
    const rows = [...page.slice(tableStart, tableEnd).matchAll(/^\| `([^`]+)` +\| (\d+) +\| `([^`]+)` +\|$/gm)];
    assert.deepEqual(
      rows.map(([, specifier, count, file]) => ({ specifier, count: Number(count), file })),
      report.map((e) => ({ specifier: e.specifier, count: e.names.size, file: e.file })),
      "the table is stale: npm run api:report rewrites it",
    );
  });

  it("writes any other count next to its entry point, and as the report has it", () => {
    for (const count of prose.matchAll(/(?:`(@mcplite\/sdk[\w/-]*)` \()?\b(\d+)[ -]names?\b/g)) {
      const [text, specifier, n] = count;
      assert.ok(specifier, `"${text}": ${PAGE} gives a count without its entry point`);
      assert.ok(bySpecifier.has(specifier), `${specifier} is not an entry point`);
      assert.equal(Number(n), bySpecifier.get(specifier)!.names.size, `${specifier} exports another number of names`);
    }
  });

  it("puts under an entry point only names it exports", () => {
    const sections = entrySections();
    assert.ok(sections.length >= 4, "the page has a section per main entry point");
    const wrong: string[] = [];
    for (const { heading, entries, body } of sections) {
      for (const entry of entries) assert.ok(bySpecifier.has(entry), `${heading}: ${entry} is not an entry point`);
      // `name`, `name()`, optionally followed by `(in `@mcplite/sdk/…`)`; `a.b`, `f(x)` and paths are not names.
      const names = body.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`(?: \(in `(@mcplite\/sdk[\w/-]*)`\))?/g);
      let checked = 0;
      for (const [, name, elsewhere] of names) {
        const owners = elsewhere ? [elsewhere] : entries;
        const exported = owners.some((owner) => bySpecifier.get(owner)?.names.has(name));
        if (!exported) wrong.push(`"${heading}": \`${name}\` is not exported by ${owners.join(" or ")}`);
        checked++;
      }
      assert.ok(checked > 0, `"${heading}" names no export`);
    }
    assert.deepEqual(wrong, [], `${PAGE} names what its entry points do not export`);
  });
});
