/**
 * Type tests for `createClient()`'s options: each target takes the options it uses. With a transport,
 * the options of the transport's own requests (`fetch`, `headers`, `auth`, `protocolVersion`, the
 * `transport` wire) do not compile, nor `fetch`, `auth` and `maxResponseBytes` in process, nor the in-process
 * `basePath` and `path` for a URL; the tools stay typed from `S`.
 * Checked by `deno check`, never run; `create-client.test.ts` asserts the run-time refusals.
 */
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { type Client, type ClientOptions, createClient } from "../../src/client/mod.ts";
import { createMcpTransport } from "../../src/client/transports/mcp.ts";
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
// A URL's options built elsewhere, headers among them, are typed `ClientOptions`: with a transport they compile (the
// transport's overload omits those keys; a value not written as a literal keeps them unchecked) and are refused at
// run time (create-client.test.ts). Issue 64's one ClientOptions: was a compile error with TransportClientOptions.
void (() => createClient(transport, forUrl));
const forTransport: ClientOptions = { timeoutMs: 1_000 };
void createClient(transport, forTransport);

// In process: headers reach the server's middleware, `transport` chooses the wire; there is no fetch to replace,
// nor an auth flow, nor a response bound (the answer is the server's own Response).
const inProcess = createClient(server, { headers: { authorization: "Bearer t" }, transport: "mcp" });
type _InProcess = Expect<Equal<typeof inProcess, Client<Tools>>>;
// @ts-expect-error: the server's own fetch is called
createClient(server, { fetch: (request: Request) => fetch(request) });
// @ts-expect-error: no authorization flow in process
createClient(server, { auth: { wrap: (f) => f } });
// @ts-expect-error: no HTTP answer to bound in process
createClient(server, { maxResponseBytes: 1024 });

// A URL takes them all, and not the in-process options.
void createClient<typeof server>("http://localhost:8000", {
  transport: "mcp",
  fetch: (request: Request) => fetch(request),
  headers: () => ({ authorization: "Bearer t" }),
  protocolVersion: "2025-11-25",
});
// @ts-expect-error: `path` is for a server in process; a URL holds its path
createClient("http://localhost:8000", { path: "/mcp" });
// @ts-expect-error: `basePath` is for a server in process as well
createClient("http://localhost:8000", { basePath: "/mcp-lite/v1" });
