/**
 * The module `mcplite types` writes, from schemas as servers emit them: each JSON Schema construct as the
 * TypeScript type it means, `deno fmt`-clean output, a consumer that type-checks its typed calls and
 * fails on wrong ones, and `--check`'s account of what changed.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { ToolInfo } from "../../../src/client/mod.ts";
import { typesModule } from "../../../src/cli/types-command/types-module.ts";
import { typesDrift } from "../../../src/cli/types-command/types-drift.ts";
import { assertConsumerChecks, assertFormatted, typesDir } from "../../helpers/generated-types.ts";

const search: ToolInfo = {
  name: "search_documents",
  description: "Searches the documents; */ cannot end this comment",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "What to find" },
      limit: { type: "integer", default: 10 },
      "sort-by": { enum: ["date", "score"] },
      tags: { type: "array", items: { type: "string" } },
      range: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], minItems: 2, items: false },
      since: { type: ["string", "null"], format: "date-time" },
      legacy: { type: "string", nullable: true },
      filter: { $ref: "#/$defs/Filter" },
      meta: { type: "object", additionalProperties: { type: "string" } },
      permissions: {
        type: "object",
        properties: { checks: { type: "string" } },
        additionalProperties: { type: "string" },
      },
      extra: { type: "object", properties: { a: { type: "string" } }, additionalProperties: true },
      anything: {},
      kind: { const: "doc" },
      shape: {
        oneOf: [
          { type: "object", properties: { r: { type: "number" } }, required: ["r"] },
          { type: "object", properties: { w: { type: "number" }, h: { type: "number" } }, required: ["w", "h"] },
        ],
      },
      both: {
        allOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          { type: "object", properties: { b: { type: "boolean" } } },
        ],
      },
      stage: { enum: ["draft", "review", "approved", "published", "archived", "deleted", "restored"] },
    },
    required: ["query"],
    additionalProperties: false,
    $defs: {
      Filter: {
        type: "object",
        description: "A filter, and the filters below it",
        properties: { field: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Filter" } } },
        required: ["field"],
      },
    },
  },
  outputSchema: {
    type: "object",
    properties: {
      hits: {
        type: "array",
        items: { type: "object", properties: { id: { type: "string" }, score: { type: "number" } }, required: ["id"] },
      },
      total: { type: "integer" },
    },
    required: ["hits"],
  },
};
const tree: ToolInfo = {
  name: "walk-tree",
  inputSchema: {
    type: "object",
    properties: { node: { $ref: "#/definitions/node" } },
    required: ["node"],
    definitions: { node: { anyOf: [{ type: "string" }, { type: "array", items: { $ref: "#/definitions/node" } }] } },
  },
};
const ping: ToolInfo = { name: "ping", inputSchema: { type: "object", properties: {} } };
/** What the others leave out: draft-07 tuples, `$ref: "#"`, patternProperties, a missing `$ref`, a name taken. */
const edge: ToolInfo = {
  name: "edge.cases",
  inputSchema: {
    type: "object",
    properties: {
      point: { type: "array", items: [{ type: "number" }, { type: "string" }], additionalItems: { type: "boolean" } },
      pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], minItems: 1, maxItems: 2 },
      self: { $ref: "#" },
      headers: { type: "object", patternProperties: { "^x-": { type: "string" } }, additionalProperties: false },
      id: { type: ["integer", "string"] },
      modes: { type: "array", items: { enum: ["read", "write", "admin", "owner", "maintainer", "triage", "none"] } },
      patch: {
        type: "object",
        properties: { title: { type: "string" }, body: { type: "string" } },
        anyOf: [{ required: ["title"] }, { required: ["body"] }],
      },
      never: false,
      missing: { $ref: "#/$defs/Nope" },
      EdgeCasesInput: { $ref: "#/$defs/EdgeCasesInput" },
      veryLongPropertyNameThatKeepsGoingOnAndOn: {
        type: "object",
        additionalProperties: { type: "array", items: { type: "string" } },
      },
      old: { type: "string", deprecated: true, description: "Use id" },
      owner: { type: "object", nullable: true, properties: { login: { type: "string" } }, required: ["login"] },
      nothing: { const: null },
    },
    required: ["point"],
    $defs: { EdgeCasesInput: { type: "string", title: "A definition named as a tool's input" } },
  },
};

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

  it("is deno fmt-clean, and types a client's calls: wrong arguments and result keys do not compile", {
    timeout: 180_000,
  }, async () => {
    const dir = typesDir();
    writeFileSync(join(dir, "remote.ts"), text);
    await assertFormatted(join(dir, "remote.ts"));
    await assertConsumerChecks(
      dir,
      `import { createClient } from "@mcplite/sdk/client";
import type { Remote } from "./remote.ts";

const client = createClient<Remote>("http://localhost:8000/mcp");
export async function calls(): Promise<number> {
  const found = await client.call("search_documents", {
    query: "mcp",
    range: [1, 2],
    filter: { field: "title", children: [{ field: "body" }] },
    shape: { w: 1, h: 2 },
    both: { a: "x", b: true },
    extra: { a: "y", more: 1 },
  });
  const id: string = found.hits[0].id;
  const result = await client.callTool("search_documents", { query: "mcp" });
  const total: number | undefined = result.structuredContent?.total;
  await client.call("walk-tree", { node: ["a", ["b", ["c"]]] });
  const pong: unknown = await client.call("ping", {});
  // @ts-expect-error: no such argument (the input is closed)
  await client.call("search_documents", { query: "mcp", sort: "asc" });
  // @ts-expect-error: query is a string
  await client.call("search_documents", { query: 1 });
  // @ts-expect-error: "sort-by" is "date" or "score"
  await client.call("search_documents", { query: "mcp", "sort-by": "name" });
  // @ts-expect-error: a tuple of two numbers
  await client.call("search_documents", { query: "mcp", range: [1, 2, 3] });
  // @ts-expect-error: a circle has r, a rectangle w and h
  await client.call("search_documents", { query: "mcp", shape: { w: 1 } });
  // @ts-expect-error: ping takes no argument
  await client.call("ping", { now: true });
  // @ts-expect-error: no tool of that name
  await client.call("search", { query: "mcp" });
  // @ts-expect-error: the result has no such key
  void found.count;
  return id.length + (total ?? 0) + (pong === undefined ? 0 : 1);
}
`,
    );
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
