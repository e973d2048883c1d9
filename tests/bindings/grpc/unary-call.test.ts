/**
 * The direct unary paths' deadlines (`UnaryCall`): a request whose body sends part of its message and
 * then stalls is answered DEADLINE_EXCEEDED once the server's `bodyTimeoutMs` has passed, on every gRPC
 * wire: Connect unary (JSON and binary) and gRPC-Web on `server.fetch`, and gRPC on `serveGrpc()`, where
 * a client's earlier `grpc-timeout` answers first.
 */
import assert from "node:assert/strict";
import { connect } from "node:http2";
import { after, before, describe, it } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { type GrpcListener, serveGrpc, ToolRequestSchema } from "../../../src/bindings/grpc/mod.ts";
import { BASE } from "../../helpers/request.ts";
import { grpcServer } from "./grpc-fixtures.ts";

const BODY_TIMEOUT_MS = 300;
/**
 * How long a stalled request waits for its answer: the stalled body never ends, so only the body
 * timeout (the runtime's own timer) can answer it; seconds of room for a loaded machine.
 */
const NO_ANSWER_MS = BODY_TIMEOUT_MS + 10_000;
const CALL = "/mcplite.MCPLite/CallTool";

const message = toBinary(ToolRequestSchema, create(ToolRequestSchema, { name: "add", arguments: { a: 1, b: 2 } }));

/** The call's message in a gRPC envelope (gRPC over HTTP/2 protocol, Length-Prefixed-Message). */
function envelope(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + bytes.byteLength);
  new DataView(out.buffer).setUint32(1, bytes.byteLength);
  out.set(bytes, 5);
  return out;
}

/** A body that sends `part` and then neither sends more nor ends; cancelled when the server gives up. */
function stalling(part: Uint8Array): { body: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(part);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { body, cancelled: () => cancelled };
}

/** Sends a stalling request through `server.fetch`, bounded in time, and returns the answer. */
async function fetchStalled(
  server: ReturnType<typeof grpcServer>,
  headers: Record<string, string>,
  part: Uint8Array,
): Promise<{ response: Response }> {
  const { body } = stalling(part);
  const init = { method: "POST", headers, body, duplex: "half" } as RequestInit;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const response = await Promise.race([
    server.fetch(new Request(BASE + CALL, init)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("no answer")), NO_ANSWER_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  return { response };
}

// Which deadline answered (and so that none answered before it) is in the answer's own words: the body timeout's
// "did not arrive within 300 ms", or Connect's "the operation timed out" for a client's earlier grpc-timeout.
describe("a stalled request body answers DEADLINE_EXCEEDED within bodyTimeoutMs", () => {
  const server = grpcServer({ bodyTimeoutMs: BODY_TIMEOUT_MS });
  const json = new TextEncoder().encode('{"name":"add","argu');

  const connectCases: [string, Record<string, string>, Uint8Array][] = [
    ["Connect JSON", { "content-type": "application/json" }, json],
    ["Connect JSON with a Content-Length", { "content-type": "application/json", "content-length": "40" }, json],
    ["Connect binary", { "content-type": "application/proto" }, message.subarray(0, 4)],
  ];
  for (const [label, headers, part] of connectCases) {
    it(`on server.fetch: ${label}`, async () => {
      const { response } = await fetchStalled(server, headers, part);
      assert.equal(response.status, 504); // Connect's HTTP status for deadline_exceeded
      const error = await response.json();
      assert.equal(error.code, "deadline_exceeded");
      assert.match(error.message, /did not arrive within 300 ms/);
    });
  }

  it("on server.fetch: gRPC-Web (through Connect's handler)", async () => {
    const { response } = await fetchStalled(
      server,
      { "content-type": "application/grpc-web+proto" },
      envelope(message).subarray(0, 8),
    );
    // gRPC-Web carries the status in a trailer frame at the end of the body.
    const text = new TextDecoder().decode(await response.arrayBuffer());
    assert.match(text, /grpc-status: ?4\r\n/);
    assert.match(decodeURIComponent(text), /did not arrive within 300 ms/);
  });

  describe("on serveGrpc()", () => {
    let listener: GrpcListener;
    before(async () => listener = await serveGrpc(server, { port: 0, closeGraceMs: 200 }));
    after(() => listener.close());

    /** A gRPC call whose body stalls: its trailers. */
    async function stalled(url: string, headers: Record<string, string> = {}) {
      const session = connect(url);
      try {
        const trailers = await new Promise<Record<string, unknown>>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error("no answer")), NO_ANSWER_MS);
          const stream = session.request({
            ":method": "POST",
            ":path": CALL,
            "content-type": "application/grpc",
            ...headers,
          });
          stream.on("trailers", (t) => {
            clearTimeout(timer);
            resolve({ ...t });
            stream.close();
          });
          stream.on("error", reject);
          stream.resume();
          stream.write(envelope(message).subarray(0, 8)); // and never ends
        });
        return { trailers };
      } finally {
        session.destroy(); // not close(): no GOAWAY in flight for Deno's node:http2 (tests/helpers/h2-sessions.ts)
      }
    }

    it("gRPC over HTTP/2", async () => {
      const { trailers } = await stalled(listener.url);
      assert.equal(trailers["grpc-status"], "4");
      assert.match(decodeURIComponent(String(trailers["grpc-message"])), /did not arrive within 300 ms/);
    });

    it("gRPC over HTTP/2 with a grpc-timeout: the earlier deadline answers", async () => {
      // The client's deadline first (50 ms): Connect's deadline error.
      const early = await stalled(listener.url, { "grpc-timeout": "50m" });
      assert.equal(early.trailers["grpc-status"], "4");
      assert.equal(decodeURIComponent(String(early.trailers["grpc-message"])), "the operation timed out");
      // The server's body timeout first (the client's is 5 s).
      const late = await stalled(listener.url, { "grpc-timeout": "5S" });
      assert.equal(late.trailers["grpc-status"], "4");
      assert.match(decodeURIComponent(String(late.trailers["grpc-message"])), /did not arrive within 300 ms/);
    });
  });
});
