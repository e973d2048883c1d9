/**
 * The module `mcplite types` writes, from schemas as servers emit them: each JSON Schema construct as the
 * TypeScript type it means, `deno fmt`-clean output, and `--check`'s account of what changed. A consumer that
 * type-checks its typed calls and fails on wrong ones is checked by types-interop.test.ts, with the other generated
 * modules' consumers, in one `deno check` (each check type-checks the SDK's client anew).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { typesModule } from "../../../src/cli/types-command/types-module.ts";
import { typesDrift } from "../../../src/cli/types-command/types-drift.ts";
import { assertFormatted, typesDir } from "../../helpers/generated-types.ts";
import { edge, ping, search, tree } from "./schema-fixtures.ts";

describe("mcplite types: the module", () => {
  const { text } = typesModule([tree, search, ping, edge]);

  it("says each construct as the TypeScript type it means", () => {
    const lines = [
      "export type PingInput = Record<string, never>;",
      "export interface SearchDocumentsInput {",
      "  /** What to find */\n  query: string;",
      "  /** @default 10 */\n  limit?: number;",
      '  "sort-by"?: "date" | "score";',
      "  tags?: string[];",
      "  range?: [number, number];",
      "  since?: string | null;",
      "  legacy?: string | null;",
      "  filter?: Filter;",
      "  meta?: Record<string, string>;",
      // An optional property under an index signature: the index admits undefined (TS2411 otherwise).
      "  permissions?: {\n    checks?: string;\n    [key: string]: string | undefined;\n  };",
      "  extra?: {\n    a?: string;\n    [key: string]: unknown;\n  };",
      "  anything?: unknown;",
      '  kind?: "doc";',
      "  shape?:\n    | {\n      r: number;\n    }\n    | {\n      w: number;\n      h: number;\n    };",
      "  both?: {\n    a: string;\n  } & {\n    b?: boolean;\n  };",
      '  stage?:\n    | "draft"\n    | "review"',
      "/** A filter, and the filters below it */\nexport interface Filter {\n  field: string;\n  children?: Filter[];\n}",
      "export type Node = string | Node[];",
      "export interface WalkTreeInput {\n  node: Node;\n}",
      "export interface SearchDocumentsOutput {\n  hits: {\n    id: string;\n    score?: number;\n  }[];\n  total?: number;\n}",
      "Searches the documents; *\\/ cannot end this comment",
      'export interface Remote {\n  tools: {\n    "edge.cases": { input: EdgeCasesInput; output: unknown };\n',
      "  point: [number, string, ...boolean[]];",
      "  pair?: [string, number?];",
      "  self?: EdgeCasesInput;",
      "  headers?: Record<string, string>;",
      "  id?: number | string;",
      '  modes?: Array<\n    | "read"\n    | "write"',
      '    | "none"\n  >;',
      "  patch?: {\n    title?: string;\n    body?: string;\n  };",
      "  never?: never;",
      "  missing?: unknown;",
      "  EdgeCasesInput?: EdgeCasesInput2;",
      "export type EdgeCasesInput2 = string;",
      "  /**\n   * Use id\n   * @deprecated\n   */\n  old?: string;",
      "  owner?:\n    | {\n      login: string;\n    }\n    | null;",
      "  nothing?: null;",
      "    search_documents: {\n      input: SearchDocumentsInput;\n      output: SearchDocumentsOutput;\n    };",
      '    "walk-tree": { input: WalkTreeInput; output: unknown };\n  };\n}\n',
    ];
    for (const line of lines) assert.ok(text.includes(line), `the module has:\n${line}\n\n${text}`);
    assert.doesNotMatch(text, /^import /m, "the module imports nothing: any project can use it");
    // Sorted by name: the order a server lists its tools in does not change the file.
    assert.equal(typesModule([ping, edge, search, tree]).text, text);
  });

  it("is deno fmt-clean (its consumer's check is types-interop.test.ts's, with the other modules')", {
    timeout: 180_000,
  }, async () => {
    const dir = typesDir();
    writeFileSync(join(dir, "remote.ts"), text);
    await assertFormatted(join(dir, "remote.ts"));
  });
});

describe("mcplite types --check: what changed", () => {
  const before = typesModule([search, tree]);

  it("names nothing when the tools are the same", () => {
    assert.deepEqual(typesDrift(before.text, typesModule([tree, search])), []);
  });

  it("names the tools added, removed and changed, with the declarations that changed", () => {
    const changedFilter = structuredClone(search);
    (changedFilter.inputSchema as { $defs: { Filter: { required: string[] } } }).$defs.Filter.required = [];
    assert.deepEqual(typesDrift(before.text, typesModule([changedFilter, ping])), [
      'tool "ping" added',
      'tool "walk-tree" removed',
      'tool "search_documents" changed (Filter)',
    ]);
    const renamedOutput = structuredClone(search);
    (renamedOutput.outputSchema as { required: string[] }).required = ["hits", "total"];
    assert.deepEqual(typesDrift(before.text, typesModule([renamedOutput, tree])), [
      'tool "search_documents" changed (SearchDocumentsOutput)',
    ]);
    assert.deepEqual(typesDrift(before.text.replace("// Generated", "// Edited"), before), [
      "the file differs from what the tools give (not in any tool's types)",
    ]);
  });
});
