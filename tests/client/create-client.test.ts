/**
 * `createClient()` refuses, at run time as at compile time (`create-client-options.test-d.ts`), the
 * options its target would ignore, and says where each goes: with a transport, how its requests go
 * (`fetch`, `headers`, `auth`, `protocolVersion`, `maxResponseBytes`, the `transport` wire) is the transport's;
 * in process, `fetch`, `auth` and `maxResponseBytes` have nothing to act on (and no answer is bounded: a list past
 * 16 MiB is read whole); for a URL, the in-process paths do not apply.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createClient } from "../../src/client/mod.ts";
import { createMcpTransport } from "../../src/client/transports/mcp.ts";
import { createInProcessTransport } from "../../src/client/transports/in-process.ts";
import { fixtureServer } from "../helpers/fixtures.ts";

const server = fixtureServer();
const transport = () => createMcpTransport("http://localhost/mcp", { fetch: (request) => server.fetch(request) });

/** Options as a caller builds them where the types do not reach (JavaScript, `any`, JSON). */
function untyped(options: Record<string, unknown>): never {
  return options as never;
}

describe("createClient() refuses the options its target would ignore", () => {
  for (
    const [name, value] of [
      ["headers", { authorization: "Bearer t" }],
      ["fetch", (request: Request) => fetch(request)],
      ["auth", { wrap: (f: unknown) => f }],
      ["protocolVersion", "2025-11-25"],
      ["maxResponseBytes", 1024],
    ] as const
  ) {
    it(`with a transport: ${name} goes to the transport`, () => {
      assert.throws(() => createClient(transport(), untyped({ [name]: value, timeoutMs: 1_000 })), (error: Error) => {
        assert.ok(error instanceof TypeError);
        assert.match(error.message, new RegExp(`^createClient\\(transport, options\\): \`${name}\` would be ignored`));
        assert.ok(error.message.includes(`give the transport ${name} where it is made`), error.message);
        assert.match(error.message, /createClient\(url, \{ … \}\)/);
        return true;
      });
    });
  }

  it("with a transport: names every ignored option at once, and `transport` as the wire", () => {
    assert.throws(
      () => createClient(transport(), untyped({ headers: {}, fetch })),
      /`fetch`, `headers` would be ignored: .*give the transport fetch, headers where it is made/,
    );
    assert.throws(
      () => createClient(transport(), untyped({ transport: "mcp" })),
      /^TypeError: createClient\(transport, options\): `transport` would be ignored: the transport is the wire$/,
    );
  });

  it("in process: fetch, auth and maxResponseBytes, with headers named as the way to send credentials", () => {
    assert.throws(
      () => createClient(server, untyped({ fetch })),
      /createClient\(server, options\): `fetch` would be ignored: in process the server's own fetch is called/,
    );
    assert.throws(
      () => createClient(server, untyped({ auth: { wrap: (f: unknown) => f } })),
      /`auth` would be ignored: .*headers: \{ authorization: "Bearer …" \}/,
    );
    assert.throws(
      () => createClient(server, untyped({ maxResponseBytes: 1024 })),
      /^TypeError: createClient\(server, options\): `maxResponseBytes` would be ignored: in process the server's own fetch/,
    );
  });

  it("for a URL: the in-process paths", () => {
    assert.throws(
      () => createClient("http://localhost:8000", untyped({ basePath: "/v1", path: "/x" })),
      /createClient\(url, options\): `basePath`, `path` would be ignored: .*`transport` chooses the wire/,
    );
  });

  it("takes what each target uses: the transport's headers reach the server, the client's options apply", async () => {
    const seen: (string | null)[] = [];
    const withHeaders = createMcpTransport("http://localhost/mcp", {
      headers: { authorization: "Bearer from-the-transport" },
      fetch: (request) => {
        seen.push(request.headers.get("authorization"));
        return server.fetch(request);
      },
    });
    const overTransport = createClient<typeof server>(withHeaders, { timeoutMs: 5_000, retry: false });
    assert.deepEqual(await overTransport.call("add", { a: 1, b: 2 }), { sum: 3 });
    assert.ok(seen.length > 0 && seen.every((value) => value === "Bearer from-the-transport"), String(seen));

    const inProcess = createClient(server, { headers: { authorization: "Bearer t" }, transport: "mcp" });
    assert.deepEqual(await inProcess.call("add", { a: 2, b: 2 }), { sum: 4 });
    assert.equal(inProcess.wire, "mcp"); // `transport` chooses the wire in process
    // The in-process option's old name is refused, naming the new one, whatever the target.
    for (const target of [server, "http://localhost:8000/mcp"]) {
      assert.throws(
        () => createClient(target as typeof server, untyped({ wire: "mcp" })),
        /the wire is `transport` now/,
      );
    }
    const overInProcessTransport = createClient<typeof server>(createInProcessTransport(server), { timeoutMs: 5_000 });
    assert.deepEqual(await overInProcessTransport.call("add", { a: 3, b: 2 }), { sum: 5 });
    const empty = createClient(transport(), untyped({ headers: undefined, fetch: undefined }));
    assert.deepEqual(await empty.call("add", { a: 0, b: 0 }), { sum: 0 });
  });
});

describe("createClient(server) in process", () => {
  it("reads a list past the 16 MiB a remote answer is held to: no network carries it, so nothing bounds it", async () => {
    // 40 tools of 512 KiB of description each: a 20 MiB list, as an imported API without tool search answers.
    const { createServer, defineTool } = await import("../../mod.ts");
    const big = createServer({ name: "big", version: "1.0.0" });
    for (let i = 0; i < 40; i++) big.tool(defineTool(`t${i}`).describe("x".repeat(512 * 1024)).handle(() => "ok"));
    for (const wire of ["mcp-lite", "mcp"] as const) {
      const client = createClient(big, { transport: wire });
      try {
        const tools = await client.listTools();
        assert.equal(tools.length, 40, wire);
        assert.equal(tools[39].description?.length, 512 * 1024);
      } finally {
        await client.close();
      }
    }
  });
});
