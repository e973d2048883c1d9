/**
 * The checkout of docs/guides/mcp.md, as written (its `checkout-server.ts` block, the SDK's entry points mapped to
 * this checkout's sources), called by the official v2 client pinned to MCP 2026-07-28 and by our client over
 * MCP-lite: both wires answer the URL elicitation with an input round, so the handler runs twice per call. Each call
 * records one payment, and the flow the result names is the one the user was sent to.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { serve } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import type { Listener } from "../../src/types.ts";
import { entryPointImports } from "../helpers/entry-points.ts";
import { tsBlocks } from "../helpers/markdown.ts";
import { ROOT } from "../helpers/process.ts";

const PAGE = "docs/guides/mcp.md";
const block = tsBlocks(readFileSync(`${ROOT}${PAGE}`, "utf8"), PAGE).find((b) => b.file === "checkout-server.ts");
// In a directory of its own (not under tests/, which the type check reads as it is written), its imports as
// absolute URLs: the SDK's entry points mapped to this checkout's sources, valibot as this test resolves it.
const dir = mkdtempSync(join(tmpdir(), "mcplite-checkout-"));
const file = join(dir, "checkout-server.ts");
const imports: Record<string, string> = { ...entryPointImports(), valibot: import.meta.resolve("valibot") };
writeFileSync(
  file,
  block!.code.replace(/from "([@\w][\w/@.-]*)"/g, (whole, name: string) => {
    return imports[name] === undefined ? whole : `from "${imports[name]}"`;
  }),
);

type Shop = {
  server: Parameters<typeof serve>[0];
  payments: Map<string, { user: string }>;
};
const shop = await import(`file://${file}`) as Shop;

let listener: Listener;
before(async () => listener = await serve(shop.server, { port: 0, hostname: "127.0.0.1", quiet: true }));
after(async () => {
  await listener.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The flow a result names: `Pay in your browser (flow …)`. */
function flowOf(text: string): string {
  const flow = /^Pay in your browser \(flow ([\w-]+)\)$/.exec(text)?.[1];
  assert.ok(flow, text);
  return flow;
}

describe("the checkout of docs/guides/mcp.md", () => {
  it("pays once per call with the official v2 client on 2026-07-28, the flow the user was sent to", async () => {
    const urls: string[] = [];
    const client = new ClientV2({ name: "shopper", version: "2.4.0" }, {
      capabilities: { elicitation: { form: {}, url: {} } },
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    client.setRequestHandler("elicitation/create", (request) => {
      urls.push(String((request.params as { url?: string }).url));
      return { action: "accept" };
    });
    await client.connect(new TransportV2(new URL(`${listener.url}/mcp`)));
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
      const before = shop.payments.size;
      const result = await client.callTool({ name: "checkout", arguments: {} }) as { content: { text: string }[] };
      const flow = flowOf(result.content[0].text);
      assert.equal(urls.length, 1);
      assert.equal(new URL(urls[0]).searchParams.get("flow"), flow, "the result names the flow the user was sent to");
      assert.equal(shop.payments.size, before + 1, "one payment recorded for the call");
      assert.ok(shop.payments.has(flow));
    } finally {
      await client.close();
    }
  });

  it("pays once per call with our client over MCP-lite, the flow the user was sent to", async () => {
    const urls: string[] = [];
    const client = createClient(`${listener.url}/mcp-lite/v1`, {
      transport: "mcp-lite",
      elicitationModes: ["form", "url"],
      onElicit: (request) => {
        if (request.mode === "url") urls.push(request.url);
        return { action: "accept" };
      },
    });
    try {
      const before = shop.payments.size;
      const flow = flowOf(String(await client.call("checkout", {})));
      assert.equal(urls.length, 1);
      assert.equal(new URL(urls[0]).searchParams.get("flow"), flow, "the result names the flow the user was sent to");
      assert.equal(shop.payments.size, before + 1, "one payment recorded for the call");
      assert.ok(shop.payments.has(flow));
    } finally {
      await client.close();
    }
  });
});
