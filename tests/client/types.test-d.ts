/**
 * Type tests for the client: names, arguments and results come from the server's type, and a wrong
 * name or argument does not compile. Checked by `deno check` (`deno check tests/`), never run.
 */
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { type CallHandle, type Client, createClient } from "../../src/client/mod.ts";
import type { ToolError } from "../../src/errors/mod.ts";
import type { ToolsOf } from "../../src/client/mod.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

const search = defineTool("search_documents")
  .input(v.object({ query: v.string(), limit: v.optional(v.number(), 10) }))
  .output(v.object({ hits: v.array(v.object({ id: v.string(), title: v.string() })) }))
  .handle(({ query }) => ({ hits: [{ id: "1", title: query }] }));
const report = defineTool("generate_report")
  .input(v.object({ topic: v.string() }))
  .stream(async function* ({ topic }) {
    yield topic;
  });
const ping = defineTool("ping").handle(() => "pong");
const server = createServer({ name: "docs", version: "1.0.0" }).tool(search).tool(report).tool(ping);

async function typed(client: Client<NonNullable<(typeof server)["~tools"]>>): Promise<void> {
  const found = await client.call("search_documents", { query: "mcp" });
  type _Found = Expect<Equal<typeof found, { hits: { id: string; title: string }[] }>>;
  const shortcut = await client.tools.search_documents({ query: "mcp", limit: 3 });
  type _Shortcut = Expect<Equal<typeof shortcut, { hits: { id: string; title: string }[] }>>;
  const pong: unknown = await client.call("ping", {});
  void pong;

  const orFailure = await client.call("search_documents", { query: "q" }, { failure: "value" });
  type _OrFailure = Expect<Equal<typeof orFailure, { hits: { id: string; title: string }[] } | ToolError>>;
  const handle = await client.call("search_documents", { query: "q" }, { wait: false });
  type _Handle = Expect<Equal<typeof handle, CallHandle<{ hits: { id: string; title: string }[] }>>>;
  const resumed = await client.resume(handle);
  type _Resumed = Expect<Equal<typeof resumed, { hits: { id: string; title: string }[] }>>;

  for await (const partial of client.stream("generate_report", { topic: "q4" })) void partial;

  // @ts-expect-error: no tool of that name
  await client.call("search_document", { query: "mcp" });
  // @ts-expect-error: query must be a string
  await client.call("search_documents", { query: 42 });
  // @ts-expect-error: query is required
  await client.call("search_documents", { limit: 3 });
  // @ts-expect-error: no such argument
  await client.call("search_documents", { query: "mcp", sort: "asc" });
  // @ts-expect-error: no tool of that name on the shortcut either
  await client.tools.search({ query: "mcp" });
  // @ts-expect-error: topic must be a string
  client.stream("generate_report", { topic: 4 });
  // @ts-expect-error: the output has no such field
  void found.total;
}
void typed;

// The type parameter types a client for a URL; passing the server types an in-process client.
const byUrl = createClient<typeof server>("http://localhost:8000");
const inProcess = createClient(server);
type _SameTools = Expect<Equal<typeof byUrl, typeof inProcess>>;
void byUrl.call("search_documents", { query: "x" });

// Without a type parameter: any name, object arguments, unknown results.
const untyped = createClient("http://localhost:8000");
type _Untyped = Expect<Equal<typeof untyped, Client<ToolsOf<unknown>>>>;
async function loose(): Promise<void> {
  const value = await untyped.call("anything", { any: "thing" });
  type _Unknown = Expect<Equal<typeof value, unknown>>;
}
void loose;

// A server known by a description of its tools' types (`mcplite types` writes one): typed as a server's type is.
interface Remote {
  tools: {
    search_documents: { input: { query: string; limit?: number }; output: { hits: { id: string; title: string }[] } };
    ping: { input: Record<string, never>; output: unknown };
  };
}
const remote = createClient<Remote>("http://localhost:8000");
const probedNames = createClient<{
  tools: Record<
    "toJSON" | "then" | "constructor" | "_private" | "echo",
    { input: Record<string, never>; output: string }
  >;
}>("http://localhost:8000");
async function described(): Promise<void> {
  const found = await remote.call("search_documents", { query: "mcp" });
  type _Found = Expect<Equal<typeof found, { hits: { id: string; title: string }[] }>>;
  const result = await remote.callTool("search_documents", { query: "mcp", limit: 2 });
  type _Structured = Expect<
    Equal<typeof result.structuredContent, { hits: { id: string; title: string }[] } | undefined>
  >;
  const pong = await remote.tools.ping({});
  type _Pong = Expect<Equal<typeof pong, unknown>>;
  // @ts-expect-error: no tool of that name
  await remote.call("search", { query: "mcp" });
  // @ts-expect-error: no such argument
  await remote.call("search_documents", { query: "mcp", sort: "asc" });
  // @ts-expect-error: query must be a string
  await remote.call("search_documents", { query: 1 });
  // A tool whose name libraries read to tell what an object is has no shortcut (it reads as `{}`'s): `call()` it.
  const probed = await probedNames.call("toJSON", {});
  type _Probed = Expect<Equal<typeof probed, string>>;
  type _NoShortcut = Expect<Equal<keyof typeof probedNames.tools, "echo">>;
  // @ts-expect-error: the output has no such field
  void found.total;
}
void described;

// A server's own type is read by its "~tools", not by its `tools` getter (an array).
type _ServerTools = Expect<Equal<ToolsOf<typeof server>, NonNullable<(typeof server)["~tools"]>>>;
// A description without names, or that is not one, types nothing.
type _Unnamed = Expect<Equal<ToolsOf<{ tools: Record<string, { input: { a: string } }> }>, ToolsOf<unknown>>>;
type _NotTools = Expect<Equal<ToolsOf<{ tools: string[] }>, ToolsOf<unknown>>>;
