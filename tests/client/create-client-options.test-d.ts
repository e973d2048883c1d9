/**
 * Type tests for `createClient()`'s options: each target takes the options it uses. With a transport,
 * the options of the transport's own requests (`fetch`, `headers`, `auth`, `protocolVersion`, the
 * `transport` wire) do not compile, nor `fetch` and `auth` in process; the tools stay typed from `S`.
 * Checked by `deno check`, never run; `create-client.test.ts` asserts the run-time refusals.
 */
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { type Client, type ClientOptions, createClient, createMcpTransport } from "../../src/client/mod.ts";
import type { TransportClientOptions } from "../../src/client/mod.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

const search = defineTool("search")
  .input(v.object({ query: v.string() }))
  .output(v.object({ hits: v.array(v.string()) }))
  .handle(({ query }) => ({ hits: [query] }));
const server = createServer({ name: "docs", version: "1.0.0" }).tool(search);
type Tools = NonNullable<(typeof server)["~tools"]>;

const transport = createMcpTransport("http://localhost:8000/mcp", { headers: { authorization: "Bearer t" } });

// A transport with the options every client takes: typed by S, as a URL client is.
const overTransport = createClient<typeof server>(transport, { timeoutMs: 5_000, onWarning: () => {} });
type _OverTransport = Expect<Equal<typeof overTransport, Client<Tools>>>;
async function typed(): Promise<void> {
  const { hits } = await overTransport.call("search", { query: "mcp" });
  type _Hits = Expect<Equal<typeof hits, string[]>>;
  // @ts-expect-error: no tool of that name
  await overTransport.call("serch", { query: "mcp" });
}
void typed;
type _ByGrpc = Expect<Equal<ReturnType<typeof createClient<typeof server>>, Client<Tools>>>;
void createClient<typeof server>(grpcTransport("http://localhost:8000"), { retry: false });

// The options of the transport's own requests belong to the transport.
// @ts-expect-error: headers go to the transport (createMcpTransport(url, { headers }))
createClient(transport, { headers: { authorization: "Bearer t" } });
// @ts-expect-error: fetch goes to the transport
createClient(transport, { fetch: (request: Request) => fetch(request) });
// @ts-expect-error: auth goes to the transport
createClient(transport, { auth: { wrap: (f) => f } });
// @ts-expect-error: the revision goes to the transport
createClient<typeof server>(transport, { protocolVersion: "2025-11-25" });
// @ts-expect-error: the transport is the wire
createClient(transport, { transport: "mcp" });

// Not only object literals: options built elsewhere are refused as well.
const forUrl: ClientOptions = { headers: { authorization: "Bearer t" }, timeoutMs: 1_000 };
void createClient("http://localhost:8000", forUrl);
// @ts-expect-error: a URL's options, headers among them, do not fit a transport
createClient(transport, forUrl);
const forTransport: TransportClientOptions = { timeoutMs: 1_000 };
void createClient(transport, forTransport);

// In process: headers reach the server's middleware; there is no fetch to replace, nor an auth flow.
const inProcess = createClient(server, { headers: { authorization: "Bearer t" }, wire: "mcp" });
type _InProcess = Expect<Equal<typeof inProcess, Client<Tools>>>;
// @ts-expect-error: the server's own fetch is called
createClient(server, { fetch: (request: Request) => fetch(request) });
// @ts-expect-error: no authorization flow in process
createClient(server, { auth: { wrap: (f) => f } });

// A URL takes them all, and not the in-process options.
void createClient<typeof server>("http://localhost:8000", {
  transport: "mcp",
  fetch: (request: Request) => fetch(request),
  headers: () => ({ authorization: "Bearer t" }),
  protocolVersion: "2025-11-25",
});
// @ts-expect-error: `wire` is for a server in process; a URL's wire is `transport`
createClient("http://localhost:8000", { wire: "mcp" });
