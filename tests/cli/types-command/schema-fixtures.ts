/**
 * Tools as servers list them, their schemas using each JSON Schema construct `mcplite types` turns into TypeScript
 * (tests/cli/types-command/types-module.test.ts reads the module it writes of them), and a consumer of that module:
 * its typed calls check, and each `// @ts-expect-error` line is an error (checked by types-interop.test.ts, with
 * the other generated modules' consumers, in one `deno check`).
 */
import type { ToolInfo } from "../../../src/client/mod.ts";

export const search: ToolInfo = {
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
export const tree: ToolInfo = {
  name: "walk-tree",
  inputSchema: {
    type: "object",
    properties: { node: { $ref: "#/definitions/node" } },
    required: ["node"],
    definitions: { node: { anyOf: [{ type: "string" }, { type: "array", items: { $ref: "#/definitions/node" } }] } },
  },
};
export const ping: ToolInfo = { name: "ping", inputSchema: { type: "object", properties: {} } };
/** What the others leave out: draft-07 tuples, `$ref: "#"`, patternProperties, a missing `$ref`, a name taken. */
export const edge: ToolInfo = {
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

/** A consumer of the module written of {@link tree}, {@link search}, {@link ping} and {@link edge}, as `./remote.ts`. */
export const CONSUMER = `import { createClient } from "@mcplite/sdk/client";
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
`;
