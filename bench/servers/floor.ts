/**
 * The floor: bare fetch handlers that parse the body and answer `Response.json` of a fixed-shape
 * result, i.e. what the runtime itself costs. Every other figure is a ratio to one of these.
 *
 * @module
 */
import { CHUNK, type Fetch, STREAM } from "./common.ts";

/** The result every server sends for add(1, 2). */
const ADD_RESULT = { content: [{ type: "text", text: '{"sum":3}' }], structuredContent: { sum: 3 } };

/** The `tools/list` result every server sends for the one `add` tool. */
const LIST_RESULT = {
  tools: [{
    name: "add",
    description: "Adds two numbers",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
  }],
};

/** `tools/call` floor: parses the body, answers `Response.json` of the fixed result. */
export const floor: Fetch = async (request) => {
  const body = await request.json() as { id?: unknown };
  return Response.json({ jsonrpc: "2.0", id: body.id ?? null, result: ADD_RESULT });
};

/** The result every server sends for `add_text(1, 2)`, a tool that returns the string "3". */
const ADD_TEXT_RESULT = { content: [{ type: "text", text: "3" }] };

/** `tools/call` floor for the string-returning tool: parses the body, answers its fixed result. */
export const floorText: Fetch = async (request) => {
  const body = await request.json() as { id?: unknown };
  return Response.json({ jsonrpc: "2.0", id: body.id ?? null, result: ADD_TEXT_RESULT });
};

/** `tools/list` floor: parses the body, answers `Response.json` of the fixed list (serialised each time). */
export const floorList: Fetch = async (request) => {
  const body = await request.json() as { id?: unknown };
  return Response.json({ jsonrpc: "2.0", id: body.id ?? null, result: LIST_RESULT });
};

/**
 * Builds an SSE floor: a bare `ReadableStream` that writes, for each of the streaming tool's chunks,
 * the frame `chunkFrame` makes, then the frame `lastFrame` makes of the whole text: the same protocol
 * messages a server must send, serialised per chunk as a real stream must, with nothing around them.
 */
function sseFloor(chunkFrame: (chunk: string, i: number) => string, lastFrame: (text: string) => string): Fetch {
  return async (request) => {
    await request.json();
    const encoder = new TextEncoder();
    const parts: string[] = [];
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < STREAM.chunks) {
          parts.push(CHUNK);
          controller.enqueue(encoder.encode(chunkFrame(CHUNK, ++i)));
        } else {
          controller.enqueue(encoder.encode(lastFrame(parts.join(""))));
          controller.close();
        }
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
}

/** SSE floor for MCP-lite: `message` events with `{"partial": …}`, then a `done` event with the result. */
export const floorSse: Fetch = sseFloor(
  (chunk) => `event: message\ndata: ${JSON.stringify({ partial: chunk })}\n\n`,
  (text) => `event: done\ndata: ${JSON.stringify({ content: [{ type: "text", text }] })}\n\n`,
);

/** SSE floor for MCP: a `notifications/partial` message per chunk (what a streaming client asks for), then the JSON-RPC result. */
export const floorMcpSse: Fetch = sseFloor(
  (chunk) =>
    `data: ${
      JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/partial",
        params: { progressToken: "p", partial: chunk },
      })
    }\n\n`,
  (text) => `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text }] } })}\n\n`,
);

/**
 * SSE floor for an MCP-lite call whose client accepts SSE (MCP-lite spec v0.042 §4.3): a bare
 * `ReadableStream` writing the one `done` event of add(1, 2)'s result, as a stream must be built.
 */
export const floorLiteDone: Fetch = async (request) => {
  await request.json();
  const frame = new TextEncoder().encode(`event: done\ndata: ${JSON.stringify(ADD_RESULT)}\n\n`);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(frame);
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
};

/**
 * Creates the floor for the loopback runs.
 *
 * @returns The handler.
 */
export function create(): Fetch {
  return floor;
}
