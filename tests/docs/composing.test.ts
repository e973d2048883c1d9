/**
 * docs/guides/composing.md's "Tool search" example runs as written, against this checkout.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ROOT } from "../helpers/process.ts";

const PAGE = readFileSync(join(ROOT, "docs/guides/composing.md"), "utf8");

describe("docs/guides/composing.md", () => {
  it("runs the tool search example", async () => {
    const section = PAGE.slice(PAGE.indexOf("## Tool search"));
    const code = section.match(/```ts\n([\s\S]*?)```/)?.[1];
    assert.ok(code !== undefined, "the section has a ts block");
    const file = join(ROOT, "tests/docs", `.composing-tool-search-${crypto.randomUUID()}.ts`);
    writeFileSync(file, code.replace('from "@mcplite/sdk"', 'from "../../mod.ts"'));
    try {
      await import(file); // its asserts throw when the example is wrong
    } finally {
      rmSync(file, { force: true });
    }
  });
});
