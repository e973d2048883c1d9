/**
 * Drives one tool call to its end over each wire that can ask the client for input: MCP-lite
 * (`elicitation` responses), MCP 2026-07-28 (input-required results) and MCP 2025 (server→client
 * requests on the SSE stream). The same `answer` function answers each question on every wire.
 */
import assert from "node:assert/strict";
import type { InputRequest } from "../../../src/types.ts";
import { legacyRequest, post, toolsCall } from "../../helpers/request.ts";
import { type Fetcher, modern, send, SseReader } from "./mcp-helpers.ts";

/** Answers one question, whatever the wire. */
export type Answerer = (request: InputRequest) => unknown;

/** How a call ended, and how many rounds of questions it took. */
export interface Driven {
  /** The final result (MCP `CallToolResult`, or MCP-lite's result). */
  // deno-lint-ignore no-explicit-any
  result: any;
  /** The keys asked, round by round (2025: one question per entry). */
  rounds: string[][];
}

function answersFor(requests: Record<string, InputRequest>, answer: Answerer): Record<string, unknown> {
  return Object.fromEntries(Object.entries(requests).map(([key, request]) => [key, answer(request)]));
}

/** Calls a tool over MCP-lite, answering `elicitation` responses until another response type comes. */
export async function driveLite(
  server: Fetcher,
  name: string,
  args: Record<string, unknown>,
  answer: Answerer,
  maxRounds = 8,
): Promise<Driven> {
  const rounds: string[][] = [];
  let params: Record<string, unknown> = { name, arguments: args };
  for (let i = 0; i <= maxRounds; i++) {
    const { body } = await send(server, post("/mcp-lite/v1/calltools", { ...toolsCall(name, args, i + 1), params }));
    assert.equal(body.error, undefined, JSON.stringify(body.error));
    const meta = body.result._meta;
    if (meta.response_type !== "elicitation") return { result: body.result, rounds };
    rounds.push(Object.keys(meta.input_requests));
    params = { ...params, inputResponses: answersFor(meta.input_requests, answer), requestState: meta.request_state };
  }
  throw new Error("too many rounds");
}

/** Calls a tool over MCP 2026-07-28, answering input-required results with the same request again. */
export async function driveModern(
  server: Fetcher,
  name: string,
  args: Record<string, unknown>,
  answer: Answerer,
  capabilities: Record<string, unknown> = { elicitation: {}, sampling: {}, roots: {} },
  maxRounds = 8,
): Promise<Driven> {
  const rounds: string[][] = [];
  let params: Record<string, unknown> = {
    name,
    arguments: args,
    _meta: { "io.modelcontextprotocol/clientCapabilities": capabilities },
  };
  for (let i = 0; i <= maxRounds; i++) {
    const { status, body } = await modern(server, "tools/call", params, {}, i + 1);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.error, undefined, JSON.stringify(body.error));
    if (body.result.resultType !== "input_required") return { result: body.result, rounds };
    rounds.push(Object.keys(body.result.inputRequests));
    params = {
      ...params,
      inputResponses: answersFor(body.result.inputRequests, answer),
      requestState: body.result.requestState,
    };
  }
  throw new Error("too many rounds");
}

/** Opens a 2025-11-25 session declaring `capabilities`. */
export async function openSession(
  server: Fetcher,
  capabilities: Record<string, unknown> = { elicitation: {}, sampling: {}, roots: {} },
): Promise<string> {
  const { headers } = await send(
    server,
    legacyRequest("initialize", {
      protocolVersion: "2025-11-25",
      capabilities,
      clientInfo: { name: "t", version: "1" },
    }),
  );
  return headers.get("mcp-session-id")!;
}

/** Calls a tool over MCP 2025-11-25, answering each server→client request POSTed back. */
export async function driveLegacy(
  server: Fetcher,
  name: string,
  args: Record<string, unknown>,
  answer: Answerer,
): Promise<Driven> {
  const session = await openSession(server);
  const response = await server.fetch(
    legacyRequest("tools/call", { name, arguments: args }, "call", "2025-11-25", { "mcp-session-id": session }),
  );
  const rounds: string[][] = [];
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
    return { result: (await response.json()).result, rounds };
  }
  const stream = new SseReader(response);
  try {
    for (let i = 0; i < 32; i++) {
      const message = await stream.next();
      if (message === undefined) throw new Error("the stream ended without a result");
      if (message.id === "call") return { result: message.result ?? message, rounds };
      if (message.method === undefined || message.id === undefined) continue; // a notification
      rounds.push([message.method]);
      const reply = post("/mcp", { jsonrpc: "2.0", id: message.id, result: answer(message) }, {
        "mcp-session-id": session,
      });
      assert.equal((await server.fetch(reply)).status, 202);
    }
  } finally {
    await stream.close();
  }
  throw new Error("too many messages");
}

/** The `_meta` of a 2026 request declaring `capabilities`, for `modern()`. */
export function declaring(capabilities: Record<string, unknown>): Record<string, unknown> {
  return { _meta: { "io.modelcontextprotocol/clientCapabilities": capabilities } };
}
