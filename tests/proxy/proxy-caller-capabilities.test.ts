/**
 * What the remote learns of the caller through `proxy()`: the gateway declares all it relays (both elicitation
 * modes, sampling, roots), so server-everything (MCP 2025-11-25, over stdio and HTTP) serves the tools it keeps for
 * clients that declare them, and asks their questions of the caller, who answers them or is refused as it would
 * refuse them itself; an MCP 2026-07-28 remote (the official SDK v2) hears per call what the caller declared.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { createClient } from "../../src/client/mod.ts";
import type { CallResult } from "../../src/client/read-result.ts";
import type { Server } from "../../src/server/server.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { runCli } from "../cli/cli-helpers.ts";
import { everythingHttp, everythingStdio } from "./everything-peer.ts";
import type { RemoteProcess } from "./remote-process.ts";
import { gatewayServer, served } from "./gateway.ts";
import { type Peer, sdkV2Peer } from "./peers.ts";
// deno-lint-ignore no-explicit-any
type Any = any;
const V1 = "@modelcontextprotocol/sdk"; // its `.js` subpaths, which Deno's checker does not resolve
const { StreamableHTTPClientTransport: HttpV1 } = await import(`${V1}/client/streamableHttp.js`) as Any;
const { ElicitRequestSchema, ListRootsRequestSchema } = await import(`${V1}/types.js`) as Any;

/** A gateway served on 127.0.0.1, its remote proxied under `all.` and closed with it. */
interface Front {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** Serves a gateway of one remote, with no option but the signal that ends a stdio child. */
async function gatewayOf(remote: string | typeof everythingStdio): Promise<Front> {
  const closed = new AbortController();
  const server = gatewayServer().group("all", await proxy(remote, { signal: closed.signal }));
  const front = await served(server);
  return {
    url: front.url,
    server,
    close: async () => {
      closed.abort();
      await front.close();
    },
  };
}

/** The text of a result (ours, or the official client's). */
function textOf(result: CallResult | Record<string, unknown>): string {
  return ((result.content ?? []) as { text?: string }[]).map((c) => c.text ?? "").join("\n");
}

/** Calls a tool with the official v1 client over MCP 2025 (Streamable HTTP), made by `setUp`. */
async function callV1(
  url: string,
  tool: string,
  args: Record<string, unknown>,
  setUp: (client: Any) => void,
  capabilities: object,
): Promise<Record<string, unknown>> {
  const client = new ClientV1({ name: "v1", version: "1.32.2" }, { capabilities });
  setUp(client);
  await client.connect(new HttpV1(new URL(`${url}/mcp`)));
  try {
    return await client.callTool({ name: tool, arguments: args });
  } finally {
    await client.close();
  }
}

const ROOT = (who: string) => [{ uri: `file:///work/${who}`, name: who }];

for (const carrier of ["stdio", "http"] as const) {
  describe(`proxy() of server-everything over ${carrier} declares what it relays, and asks the caller`, () => {
    let http: RemoteProcess | undefined;
    let remote: string | typeof everythingStdio;
    let front: Front;
    before(async () => {
      if (carrier === "http") {
        http = everythingHttp();
        await http.start();
      }
      remote = http?.url ?? everythingStdio;
      front = await gatewayOf(remote);
    });
    after(async () => {
      await front?.close();
      await http?.kill();
    });

    it("serves the remote's URL-elicitation, sampling and roots tools, as `mcplite types` lists them", async () => {
      const run = await runCli(["types", front.url], { timeoutMs: 60_000 });
      assert.equal(run.code, 0, run.stderr);
      for (const tool of ["all.trigger-url-elicitation", "all.trigger-sampling-request", "all.get-roots-list"]) {
        assert.ok(run.stdout.includes(`"${tool}"`), `${tool} is missing from:\n${run.stdout}`);
      }
    });

    it("asks a caller that declared URL elicitation to open the remote's page (the official v1 client, MCP 2025)", async () => {
      const asked: string[] = [];
      const result = await callV1(
        front.url,
        "all.trigger-url-elicitation",
        { url: "https://example.com/v1" },
        (client) =>
          client.setRequestHandler(ElicitRequestSchema, (request: Any) => {
            asked.push(request.params.url);
            return { action: "accept" };
          }),
        { elicitation: { form: {}, url: {} } },
      );
      assert.deepEqual(asked, ["https://example.com/v1"]);
      assert.match(textOf(result), /User completed the URL elicitation flow/);
    });

    it("asks it of our client on MCP 2026-07-28, as an input round", async () => {
      const asked: string[] = [];
      const client = createClient(`${front.url}/mcp`, {
        transport: "mcp",
        elicitationModes: ["form", "url"],
        onElicit: (request) => {
          if (request.mode === "url") asked.push(request.url);
          return { action: "accept" };
        },
      });
      const result = await client.callTool("all.trigger-url-elicitation", { url: "https://example.com/ours" });
      // The page the remote asked for. Each input round runs the call again at the remote, which may ask anew
      // (seen twice once in CI under load; noted in the guide's table): every question is that page.
      assert.ok(asked.length >= 1 && asked.every((url) => url === "https://example.com/ours"), asked.join());
      assert.match(textOf(result), /User completed the URL elicitation flow/);
    });

    it("answers the remote as the caller would refuse: -32602 for URL mode, -32601 for sampling it lacks", async () => {
      const client = createClient(`${front.url}/mcp`, {
        transport: "mcp",
        onElicit: () => ({ action: "accept" }), // form only
      });
      const page = await client.callTool("all.trigger-url-elicitation", { url: "https://example.com/form-only" });
      assert.equal(page.isError, true);
      assert.match(textOf(page), /-32602.*elicitation\.url/);
      const sampled = await client.callTool("all.trigger-sampling-request", { prompt: "hi" });
      assert.equal(sampled.isError, true);
      assert.match(textOf(sampled), /-32601.*sampling/);
    });

    // server-everything keeps the roots it was answered for its session, which every caller of a gateway shares:
    // each caller here gets a gateway (a session) of its own.
    const callers: [string, (url: string) => Promise<string>][] = [
      ["the official v1 client, MCP 2025", async (url) =>
        textOf(
          await callV1(
            url,
            "all.get-roots-list",
            {},
            (client) => client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: ROOT("v1") })),
            { roots: {} },
          ),
        )],
      ["our client, MCP 2025", async (url) => {
        const client = createClient(`${url}/mcp`, {
          transport: "mcp",
          protocolVersion: "2025-11-25",
          onRoots: () => ROOT("ours-2025"),
        });
        return textOf(await client.callTool("all.get-roots-list", {}));
      }],
      ["our client, MCP 2026-07-28", async (url) => {
        const client = createClient(`${url}/mcp`, { transport: "mcp", onRoots: () => ROOT("ours-2026") });
        return textOf(await client.callTool("all.get-roots-list", {}));
      }],
    ];
    for (const [caller, listRoots] of callers) {
      it(`shows the remote the roots of its caller: ${caller}`, async () => {
        const own = await gatewayOf(remote);
        try {
          const text = await listRoots(own.url);
          const who = caller.startsWith("the official") ? "v1" : caller.endsWith("2025") ? "ours-2025" : "ours-2026";
          assert.match(text, new RegExp(`URI: file:///work/${who}\\b`), text);
          assert.match(text, /Current MCP Roots \(1 total\)/);
        } finally {
          await own.close();
        }
      });
    }

    it("refuses the remote's roots/list for a caller without roots (-32601): the remote sees none", async () => {
      const own = await gatewayOf(remote);
      try {
        const client = createClient(`${own.url}/mcp`, { transport: "mcp" });
        const text = textOf(await client.callTool("all.get-roots-list", {}));
        assert.match(text, /no roots are currently configured/);
      } finally {
        await own.close();
      }
    });
  });
}

describe("proxy() passes on per call what its caller declared to an MCP 2026-07-28 remote (the official SDK v2)", () => {
  let peer: Peer;
  let front: Front;
  before(async () => {
    peer = await sdkV2Peer();
    front = await gatewayOf(peer.url);
  });
  after(async () => {
    await front?.close();
    await peer?.close();
  });

  /** What the remote saw declared by the call of `v2`'s `declared` tool. */
  const declared = (text: string) => JSON.parse(text) as Record<string, Any>;

  it("an MCP 2026-07-28 caller's own capabilities, of those the gateway relays", async () => {
    const client = createClient(`${front.url}/mcp`, { transport: "mcp", onElicit: () => ({ action: "decline" }) });
    const seen = declared(String(await client.call("all.declared", {})));
    assert.deepEqual(seen.elicitation, {}); // form only, as the caller declared it
    assert.equal(seen.sampling, undefined);
    assert.equal(seen.roots, undefined);
    assert.ok(seen.extensions?.["io.modelcontextprotocol/tasks"], "the gateway's own tasks extension stays");
  });

  it("an MCP 2025 caller's, from its session (the official v1 client); roots without listChanged", async () => {
    const result = await callV1(front.url, "all.declared", {}, () => {}, {
      sampling: {},
      roots: { listChanged: true },
    });
    const seen = declared(textOf(result));
    assert.deepEqual(seen.sampling, {});
    assert.deepEqual(seen.roots, {}); // its notifications do not reach the remote
    assert.equal(seen.elicitation, undefined);
  });

  it("what a tool's call may ask of a caller on a wire that declares none (MCP-lite), roots aside", async () => {
    const client = createClient(front.url, { transport: "mcp-lite" });
    const seen = declared(String(await client.call("all.declared", {})));
    assert.deepEqual(seen.elicitation, { form: {}, url: {} });
    assert.deepEqual(seen.sampling, { tools: {} });
    // A remote asks for roots on its own account (server-everything at each session's start): a caller that never
    // said it has roots is not asked, so its call does not fail for want of an onRoots handler.
    assert.equal(seen.roots, undefined);
  });

  it("asks the caller for the roots the remote asks for: our client (2026) and the official v1 client (2025)", async () => {
    const ours = createClient(`${front.url}/mcp`, { transport: "mcp", onRoots: () => ROOT("ours") });
    assert.equal(await ours.call("all.roots", {}), "file:///work/ours");
    const result = await callV1(
      front.url,
      "all.roots",
      {},
      (client) => client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: ROOT("v1") })),
      { roots: {} },
    );
    assert.equal(textOf(result), "file:///work/v1");
  });
});
