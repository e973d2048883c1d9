/**
 * Scenario 2: the token codec and a full promise → redeem round.
 *
 * - Token sign + verify against its floor: Web Crypto's HMAC-SHA256 sign + verify of a payload of the
 *   same size with a key imported once (what the runtime itself costs), sealed (the default) and signed
 *   only (`seal: false`), so the price of sealing reads as the ratio of the two rows.
 * - A promise → redeem round on MCP-lite (a tool answers with a promise token, the client redeems it
 *   and gets the answer) against its floor: two floor requests.
 *
 * No peer has signed continuation tokens, so this scenario is ours alone.
 *
 * Run: `bun bench/codec.bench.ts` · `deno run -A bench/codec.bench.ts` · `npm run bench` (all runtimes).
 *
 * @module
 */
import * as sdk from "../mod.ts";
import { createTokenCodec } from "../src/codec/mod.ts";
import { runScenario } from "./harness.ts";
import { jsonPost, rpc } from "./requests.ts";
import { floor } from "./servers/floor.ts";
import { promiseRound, promisingServer, REDEEMED, SECRET, twoRequests } from "./servers/promising.ts";

const STATE = { dataset_id: "d1", left: 1 };
const signed = createTokenCodec({ secret: SECRET, seal: false });
const sealed = createTokenCodec({ secret: SECRET });

const encoder = new TextEncoder();
const key = await crypto.subtle.importKey(
  "raw",
  encoder.encode(SECRET),
  { name: "HMAC", hash: "SHA-256" },
  false,
  ["sign", "verify"],
);
const payload = encoder.encode(
  JSON.stringify({ v: 1, k: "promise", t: "analyze", iat: 0, exp: 0, n: "x".repeat(22), s: STATE }),
);

const server = promisingServer(sdk);
const floorRequest = jsonPost("/mcp", rpc("tools/call", { name: "analyze", arguments: { dataset_id: "d1" } }));

await runScenario("tokens", [
  {
    name: "floor",
    expect: "true",
    fn: async () => {
      const mac = await crypto.subtle.sign("HMAC", key, payload);
      return String(await crypto.subtle.verify("HMAC", key, mac, payload));
    },
  },
  {
    name: "ours · sign + verify, signed only (seal: false)",
    expect: "d1",
    fn: async () => {
      const token = await signed.sign({ kind: "promise", scope: "analyze", state: STATE, ttlMs: 60_000 });
      return JSON.stringify((await signed.verify(token, { kind: "promise", scope: "analyze" })).state);
    },
  },
  {
    name: "ours · sign + verify, sealed (AES-GCM, the default)",
    expect: "d1",
    fn: async () => {
      const token = await sealed.sign({ kind: "promise", scope: "analyze", state: STATE, ttlMs: 60_000 });
      return JSON.stringify((await sealed.verify(token, { kind: "promise", scope: "analyze" })).state);
    },
  },
  {
    name: "floor · two requests",
    floor: "floor · two requests",
    expect: "sum",
    fn: () => twoRequests(floor, floorRequest),
  },
  {
    name: "ours · MCP-lite promise → redeem (sealed)",
    floor: "floor · two requests",
    expect: REDEEMED,
    fn: () => promiseRound(server),
  },
]);
