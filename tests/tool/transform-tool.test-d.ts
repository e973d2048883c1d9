/**
 * Type tests for `transformTool()`: the typed client sees the new name, the renamed arguments (the old
 * name no longer compiles), hidden ones gone, defaulted ones optional, and the mapped output; the
 * transforms themselves are checked against the original's arguments. Checked by `deno check`, never run.
 */
import * as v from "valibot";
import { createServer, defineTool, type InferToolInput, type InferToolOutput, transformTool } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

const search = defineTool("search_v2")
  .input(v.object({ q: v.string(), limit: v.number(), tenant: v.string(), sort: v.optional(v.string()) }))
  .output(v.object({ hits: v.array(v.string()) }))
  .handle(({ q, tenant }) => ({ hits: [`${tenant}:${q}`] }));

const find = transformTool(search, {
  name: "find",
  args: {
    q: { name: "query", description: "Keywords" },
    limit: { default: 10 },
    tenant: { hide: true, value: (ctx) => ctx.auth?.subject ?? "public" },
  },
  output: { map: ({ hits }) => ({ first: hits.length > 0 ? hits[0] : null }) },
});
type _Name = Expect<Equal<typeof find.name, "find">>;
type _Input = Expect<Equal<InferToolInput<typeof find>, { query: string; sort?: string | undefined; limit?: number }>>;
type _Output = Expect<Equal<InferToolOutput<typeof find>, { first: string | null }>>;

// Only metadata changed: the original's input and output, under the original name.
const described = transformTool(search, { description: "Searches" });
type _Described = Expect<Equal<typeof described.name, "search_v2">>;
type _SameInput = Expect<Equal<InferToolInput<typeof described>, InferToolInput<typeof search>>>;
type _SameOutput = Expect<Equal<InferToolOutput<typeof described>, { hits: string[] }>>;

const server = createServer({ name: "docs", version: "1.0.0" }).tool(find).tool(described);
const client = createClient<typeof server>("http://localhost:8000");

async function calls(): Promise<void> {
  const found = await client.call("find", { query: "mcp" });
  type _Found = Expect<Equal<typeof found, { first: string | null }>>;
  await client.call("find", { query: "mcp", limit: 3, sort: "asc" });
  await client.tools.find({ query: "mcp" });
  // @ts-expect-error: q was renamed to query
  await client.call("find", { q: "mcp" });
  // @ts-expect-error: q is no argument, even beside query
  await client.call("find", { query: "mcp", q: "mcp" });
  // @ts-expect-error: q was renamed to query, on the shortcut too
  await client.tools.find({ q: "mcp" });
  // @ts-expect-error: tenant is hidden
  await client.call("find", { query: "mcp", tenant: "other" });
  // @ts-expect-error: query is still required
  await client.call("find", { limit: 3 });
  // @ts-expect-error: the output was mapped: hits is gone
  void found.hits;
  const hits = await client.call("search_v2", { q: "mcp", limit: 1, tenant: "t" });
  type _Hits = Expect<Equal<typeof hits, { hits: string[] }>>;
}
void calls;

// The transforms are checked against the original's arguments.
// @ts-expect-error: search_v2 has no argument "nope"
transformTool(search, { args: { q: { name: "query" }, nope: { name: "x" } } });
// @ts-expect-error: a default of the argument's type
transformTool(search, { args: { limit: { default: "ten" } } });
// @ts-expect-error: a hidden value of the argument's type
transformTool(search, { args: { tenant: { hide: true, value: () => 42 } } });
// @ts-expect-error: the map receives the original's output
transformTool(search, { output: { map: ({ total }) => total } });

// A tool from a raw JSON Schema (OpenAPI's, a proxied one) takes any argument transforms.
const raw = defineTool("raw").input({ type: "object", properties: { id: { type: "string" } } }).handle(() => "ok");
const renamed = transformTool(raw, { args: { id: { name: "key", description: "The key" } } });
void renamed;
