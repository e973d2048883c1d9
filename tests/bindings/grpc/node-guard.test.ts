/**
 * `serveGrpc()` applies the server's Host/Origin guard (DNS-rebinding protection) as `server.fetch`
 * does: a gRPC call naming a foreign `:authority` is refused PERMISSION_DENIED, a Connect call from a
 * foreign page's Origin 403; gRPC clients (no Origin, `:authority` = the address they dialled) pass,
 * and so does a host listed in `allowedHosts`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type ClientHttp2Session, connect } from "node:http2";
import * as v from "valibot";
import { createServer, defineTool } from "../../../mod.ts";
import { grpcBinding, type GrpcListener, serveGrpc } from "../../../src/bindings/grpc/mod.ts";

const add = defineTool("add")
  .describe("Adds two numbers")
  .input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => a + b);

interface Answer {
  readonly status: number;
  readonly grpcStatus: string | undefined;
  readonly body: string;
}

/**
 * One client session per listener, reused by every request and destroyed before the listener closes: Deno's
 * `node:http2` can abort the process when a session closes while the other side's GOAWAY is in flight
 * (denoland/deno#36788, see tests/helpers/h2-sessions.ts), and a session per request made eight such closes.
 */
const sessions = new Map<string, ClientHttp2Session>();

function sessionFor(url: string): ClientHttp2Session {
  let session = sessions.get(url);
  if (session === undefined || session.destroyed) {
    session = connect(url);
    session.on("error", () => {}); // a request's own stream reports its failure
    sessions.set(url, session);
  }
  return session;
}

/** Sends one request on the listener's session and reads the answer whole. */
function send(url: string, headers: Record<string, string>, body: Uint8Array | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = sessionFor(url).request({ ":method": "POST", te: "trailers", ...headers });
    let status = 0;
    let grpcStatus: string | undefined;
    let text = "";
    stream.setEncoding("utf8");
    stream.on("response", (h) => {
      status = Number(h[":status"]);
      grpcStatus ??= h["grpc-status"] as string | undefined;
    });
    stream.on("trailers", (t) => grpcStatus = t["grpc-status"] as string | undefined);
    stream.on("data", (chunk: string) => text += chunk);
    stream.on("error", reject);
    stream.on("end", () => resolve({ status, grpcStatus, body: text }));
    stream.end(body);
  });
}

const grpc = (url: string, authority?: string) =>
  send(url, {
    ":path": "/mcplite.MCPLite/GetTools",
    "content-type": "application/grpc",
    ...(authority === undefined ? {} : { ":authority": authority }),
  }, new Uint8Array(5)); // one empty message, uncompressed

const connectCall = (url: string, origin?: string) =>
  send(url, {
    ":path": "/mcplite.MCPLite/GetTools",
    "content-type": "application/json",
    "connect-protocol-version": "1",
    ...(origin === undefined ? {} : { origin }),
  }, "{}");

describe("serveGrpc() applies the Host/Origin guard", () => {
  let loopback: GrpcListener;
  let listed: GrpcListener;
  before(async () => {
    loopback = await serveGrpc(createServer({ name: "g", version: "1.0.0", bindings: [grpcBinding()] }).tool(add), {
      port: 0,
    });
    const named = createServer({
      name: "g",
      version: "1.0.0",
      bindings: [grpcBinding()],
      allowedHosts: ["grpc.internal"],
    });
    listed = await serveGrpc(named.tool(add), { port: 0 });
  });
  after(async () => {
    for (const session of sessions.values()) session.destroy();
    sessions.clear();
    await loopback?.close();
    await listed?.close();
  });

  it("answers a gRPC client that names the address it dialled, and refuses a foreign :authority", async () => {
    assert.equal((await grpc(loopback.url)).grpcStatus, "0");
    assert.equal((await grpc(loopback.url, `localhost:${loopback.port}`)).grpcStatus, "0");
    const refused = await grpc(loopback.url, `rebound.example:${loopback.port}`);
    assert.equal(refused.status, 200);
    assert.equal(refused.grpcStatus, "7", "PERMISSION_DENIED");
  });

  it("refuses a Connect call from a foreign page's Origin (403) and answers one without Origin", async () => {
    assert.equal((await connectCall(loopback.url)).status, 200);
    assert.equal((await connectCall(loopback.url, `http://127.0.0.1:${loopback.port}`)).status, 200);
    const refused = await connectCall(loopback.url, "https://attacker.example");
    assert.equal(refused.status, 403);
    assert.equal(JSON.parse(refused.body).code, "permission_denied");
    assert.match(JSON.parse(refused.body).message, /Origin "https:\/\/attacker.example" is not allowed/);
  });

  it("answers a host listed in allowedHosts, and refuses the loopback names it no longer lists", async () => {
    assert.equal((await grpc(listed.url, `grpc.internal:${listed.port}`)).grpcStatus, "0");
    assert.equal((await grpc(listed.url)).grpcStatus, "7");
  });
});
