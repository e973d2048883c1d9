/**
 * Long-running tools without server state: a job answered with promise tokens that a client redeems
 * until it completes, and in-process work whose result waits for redeem.
 *
 *   deno run -A --unstable-no-legacy-abort examples/long-running.ts          bun run examples/long-running.ts
 *   deno run -A --unstable-no-legacy-abort examples/long-running.ts --demo
 *     (serves, redeems a job to its end over HTTP, exits)
 *
 * Reads PORT (default 8000) and HOSTNAME (default 127.0.0.1) from the environment, and the token
 * secret from MCPLITE_SECRET (without one, tokens redeem only on this process).
 */
import * as v from "valibot";
import { createServer, defineTool, serve } from "../mod.ts";

/** A job whose state travels in the token: any instance with the secret can redeem it. */
const analyze = defineTool("analyze_dataset")
  .type("analysis")
  .describe("Analyses a dataset; answers with a promise token to redeem until the report is ready")
  .input(v.object({
    dataset_id: v.pipe(v.string(), v.minLength(1)),
    analysis_type: v.optional(v.picklist(["quick", "comprehensive"]), "quick"),
  }))
  .output(v.object({ dataset_id: v.string(), analysis_type: v.string(), rows: v.number(), anomalies: v.number() }))
  .handle(({ dataset_id, analysis_type }, ctx) => {
    const polls = analysis_type === "quick" ? 2 : 4; // the "job" finishes after this many polls
    return ctx.promise({
      state: { dataset_id, analysis_type, left: polls },
      retryAfterMs: 500,
      estimatedCompletion: new Date(Date.now() + polls * 500),
    });
  })
  .redeem(({ dataset_id, analysis_type, left }, ctx) => {
    if (left > 1) return ctx.promise({ state: { dataset_id, analysis_type, left: left - 1 }, retryAfterMs: 500 });
    const rows = 10_000 + dataset_id.length * 137;
    return { dataset_id, analysis_type, rows, anomalies: rows % 7 };
  });

/** Work that runs on in this process; its result waits in the result store until redeemed. */
const crawl = defineTool("crawl_site")
  .type("action")
  .describe("Crawls a site in the background; redeem the token for the page count")
  .input(v.object({ url: v.pipe(v.string(), v.url()) }))
  .longRunning({ retryAfterMs: 400 })
  .defer(async ({ url }, work) => {
    for (let page = 1; page <= 3; page++) {
      await work.step(`page ${page}`, () => new Promise((resolve) => setTimeout(resolve, 300)));
      work.signal.throwIfAborted();
    }
    return { url, pages: 3 };
  });

export const server = createServer({ name: "jobs", version: "1.0.0" }).tool(analyze).tool(crawl);

async function demo(base: string): Promise<void> {
  const rpc = async (name: string, args: unknown, id: number) => {
    const response = await fetch(`${base}/mcp-lite/v1/calltools`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }),
    });
    return (await response.json()).result;
  };
  for (
    const [name, args] of [["analyze_dataset", { dataset_id: "large_dataset_001" }], ["crawl_site", {
      url: "https://example.com",
    }]] as const
  ) {
    let result = await rpc(name, args, 1);
    for (let poll = 1; result._meta.response_type === "promise" && poll <= 20; poll++) {
      console.log(`${name}: promise, redeem in ${result._meta.retry_after_ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, result._meta.retry_after_ms));
      result = await rpc("redeem", { promise: result._meta.promise_token }, poll + 1);
    }
    console.log(`${name}: ${result._meta.response_type}`, JSON.stringify(result.structuredContent));
  }
}

if (import.meta.main) {
  const listener = await serve(server, { quiet: true }); // the lines below say more
  console.log(`jobs server listening on ${listener.url}
  MCP-lite  POST ${listener.url}/mcp-lite/v1/calltools   (redeem tokens with the "redeem" tool)
  MCP       POST ${listener.url}/mcp`);
  const g = globalThis as { Deno?: { args: string[] }; process?: { argv: string[] } };
  const args = g.Deno?.args ?? g.process?.argv.slice(2) ?? [];
  if (args.includes("--demo")) {
    await demo(listener.url);
    await listener.close();
  }
}
