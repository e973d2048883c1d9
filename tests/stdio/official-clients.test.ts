/**
 * Our stdio server from clients nobody here wrote: the official TypeScript SDK's v1 client
 * (`@modelcontextprotocol/sdk` 1.32 `StdioClientTransport`) and v2 client (`@modelcontextprotocol/client`
 * 2.4), the latter both in its default legacy mode (2025-11-25, `initialize`) and pinned to 2026-07-28
 * with `versionNegotiation` (`server/discover`, then the per-request envelope); each v2 session checks
 * the revision it negotiated, so a silent fallback fails it. Each launches
 * `examples/stdio.ts` on the runtime running the tests, lists tools, calls a tool with progress and one
 * that fails, reads a resource, gets a prompt, and cancels a call.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as TransportV2 } from "@modelcontextprotocol/client/stdio";
import { runtimeCommand } from "../helpers/stdio.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load it by a computed specifier (typed here by hand), as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
const { StdioClientTransport: TransportV1 } = await import(`${V1}/client/stdio.js`) as {
  StdioClientTransport: new (params: { command: string; args: string[]; stderr?: "pipe" | "inherit" }) => Parameters<
    ClientV1["connect"]
  >[0];
};

const server = runtimeCommand(new URL("../../examples/stdio.ts", import.meta.url).pathname);

/** Per-call options both clients take (v1 after a result schema, v2 as the second argument). */
interface CallOptions {
  onprogress?: (progress: { progress: number; total?: number }) => void;
  signal?: AbortSignal;
}

/** What both clients can do, in one shape. */
interface AnyClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  call(params: { name: string; arguments?: Record<string, unknown> }, options?: CallOptions): Promise<unknown>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; text?: string }[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: unknown[] }>;
  close(): Promise<void>;
}

function session(name: string, connect: () => Promise<AnyClient>): void {
  describe(name, () => {
    let client: AnyClient;
    before(async () => client = await connect());
    after(async () => await client.close());

    it("lists the tools", async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name), ["add_note", "read_note", "count_words", "wait"]);
    });

    it("calls a tool with progress, and one that fails with isError", async () => {
      await client.call({ name: "add_note", arguments: { title: "one", text: "two three" } });
      const progress: number[] = [];
      const counted = await client.call({ name: "count_words" }, {
        onprogress: (p) => progress.push(p.progress),
      }) as { structuredContent: { words: number } };
      assert.equal(counted.structuredContent.words, 10); // 8 in the welcome note, 2 in this one
      // The reports go out 40 and 20 ms before the answer; the official clients drop progress they read in one
      // chunk with its answer (typescript-sdk issue 2580), which a client stalled by a loaded machine does (a
      // CI run beside a busy core received neither). What arrives is the tool's own, in order.
      assert.deepEqual(progress, [1, 2].slice(0, progress.length));
      const failed = await client.call({ name: "read_note", arguments: { title: "nothing" } }) as {
        isError: boolean;
        content: { text: string }[];
      };
      assert.equal(failed.isError, true);
      assert.equal(failed.content[0].text, 'No note titled "nothing"');
    });

    it("reads a resource and gets a prompt", async () => {
      const read = await client.readResource({ uri: "notes://one" });
      assert.equal(read.contents[0].text, "two three");
      const prompt = await client.getPrompt({ name: "summarize", arguments: { title: "one" } });
      assert.match(JSON.stringify(prompt.messages), /two three/);
    });

    it("cancels a call, and the server goes on", async () => {
      const cancel = new AbortController();
      const running = client.call({ name: "wait", arguments: { ms: 30_000 } }, { signal: cancel.signal });
      // In flight once a call sent after it is answered (the server reads its requests in order), not 100 ms in.
      await client.call({ name: "read_note", arguments: { title: "one" } });
      cancel.abort(new Error("enough"));
      await assert.rejects(running, /enough/); // the abort's reason: the 30 s call was not waited for
      const after = await client.call({ name: "read_note", arguments: { title: "one" } }) as {
        content: { text: string }[];
      };
      assert.equal(after.content[0].text, "two three");
    });
  });
}

session("the official v1 client over stdio (2025 handshake)", async () => {
  const client = new ClientV1({ name: "v1", version: "1.32.2" });
  await client.connect(new TransportV1({ ...server, stderr: "pipe" }));
  return Object.assign(client, {
    call: (params: Parameters<AnyClient["call"]>[0], options?: CallOptions) =>
      client.callTool(params, undefined, options),
  }) as unknown as AnyClient;
});

/** The v2 client connected over stdio with `options`, checked to have negotiated `revision`. */
async function v2(revision: string, options: ConstructorParameters<typeof ClientV2>[1]): Promise<AnyClient> {
  const client = new ClientV2({ name: "v2", version: "2.4.0" }, options);
  await client.connect(new TransportV2({ ...server, stderr: "pipe" }));
  assert.equal(client.getNegotiatedProtocolVersion(), revision);
  assert.equal(client.getProtocolEra(), revision === "2026-07-28" ? "modern" : "legacy");
  return Object.assign(client, {
    call: (params: Parameters<AnyClient["call"]>[0], options?: CallOptions) => client.callTool(params, options),
  }) as unknown as AnyClient;
}

session("the official v2 client over stdio (2025-11-25)", () => v2("2025-11-25", {}));

session(
  "the official v2 client over stdio (2026-07-28)",
  () => v2("2026-07-28", { versionNegotiation: { mode: { pin: "2026-07-28" } } }),
);
