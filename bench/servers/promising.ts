/**
 * The promise → redeem round trip every benchmark of it times: `analyze` answers with a promise token
 * (MCP-lite spec v0.042 §3.5), the client redeems it through `redeem` and gets the answer, on MCP-lite,
 * with sealed tokens (the default). Built from any checkout of the SDK, for before/after runs.
 *
 * @module
 */
import * as v from "valibot";
import type * as sdk from "../../mod.ts";
import { jsonPost, lite, type RequestFactory, rpc } from "../requests.ts";
import type { Fetch } from "./common.ts";

/** The secret the benchmark servers sign with. */
export const SECRET = "a benchmark secret of at least thirty-two bytes";

/** What the redeemed answer contains. */
export const REDEEMED = '"rows":42';

/** The call that answers with a promise. */
export const ANALYZE = lite("/calltools", "tools/call", { name: "analyze", arguments: { dataset_id: "d1" } });

/**
 * A server of an SDK checkout with the `analyze` tool: answers with a promise, redeemed by its continuation.
 *
 * @param from The SDK (this checkout's `mod.ts`, or another's).
 * @returns The server's fetch handler.
 */
export function promisingServer(from: typeof sdk): Fetch {
  const analyze = from.defineTool("analyze")
    .describe("Analyses a dataset; answers with a promise")
    .input(v.object({ dataset_id: v.string() }))
    .handle(({ dataset_id }, ctx) => ctx.promise({ state: { dataset_id }, retryAfterMs: 1 }))
    .redeem(({ dataset_id }) => ({ dataset_id, rows: 42 }));
  return from.createServer({ name: "bench", version: "1.0.0", secret: SECRET }).tool(analyze).fetch;
}

/**
 * One promise → redeem round trip.
 *
 * @param fetch A server that serves `analyze`.
 * @returns The redeem's response body.
 */
export async function promiseRound(fetch: Fetch): Promise<string> {
  const first = await (await fetch(ANALYZE())).json() as { result: { _meta: { promise_token: string } } };
  const token = first.result._meta.promise_token;
  const redeem = jsonPost(
    "/mcp-lite/v1/calltools",
    rpc("tools/call", { name: "redeem", arguments: { promise: token } }),
  );
  return await (await fetch(redeem())).text();
}

/**
 * What a promise → redeem round trip is compared with: two requests in a row to one server.
 *
 * @param fetch The server (the floor, or a plain `tools/call` of ours).
 * @param request The request sent twice.
 * @returns The second response's body.
 */
export async function twoRequests(fetch: Fetch, request: RequestFactory): Promise<string> {
  await (await fetch(request())).text();
  return await (await fetch(request())).text();
}
