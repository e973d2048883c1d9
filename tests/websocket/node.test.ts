/**
 * The WebSocket binding on Node (MCP-lite spec v0.042 §8.2): Node 22 runs `server.fetch` on
 * `@hono/node-server` with `attachWebSocket()` (tests/websocket/node-server.ts), and this runtime's
 * plain `WebSocket` drives it: list, call, bad frames answered on an open socket, and the gate at the
 * upgrade (a token in the subprotocol, a refusal written as HTTP on the raw socket).
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { bearerProtocol, WEBSOCKET_PROTOCOL } from "../../src/websocket/mod.ts";
import { ROOT } from "../helpers/process.ts";
import { childServer, node22, NODE22_MISSING } from "../helpers/child-server.ts";
import { TestSocket } from "./socket.ts";
import { assertBadFramesAnswered, assertUpgradeHeadersSeen, call } from "./fixture.ts";

/** Starts the Node server (with `auth` when asked); answers its `ws://` URL and a way to stop it. */
async function nodeServer(node: string, auth: boolean): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const server = await childServer(node, [`${ROOT}tests/websocket/node-server.ts`, ...(auth ? ["auth"] : [])]);
  return { url: `ws://127.0.0.1:${server.port}/mcp-lite/v1/ws`, port: server.port, stop: server.stop };
}

/** Sends a raw upgrade request (RFC 6455 §4.1) and answers the status line and headers the server wrote. */
function rawUpgrade(port: number, protocols: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer in 5 s"));
    }, 5000);
    let text = "";
    socket.on("data", (chunk) => void (text += String(chunk)));
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.write(
      [
        "GET /mcp-lite/v1/ws HTTP/1.1",
        `Host: 127.0.0.1:${port}`,
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        `Sec-WebSocket-Protocol: ${protocols}`,
        "",
        "",
      ].join("\r\n"),
    );
  });
}

describe("webSocketBinding on Node (@hono/node-server + attachWebSocket)", () => {
  let node: string | undefined;
  let open: Awaited<ReturnType<typeof nodeServer>> | undefined;
  let guarded: Awaited<ReturnType<typeof nodeServer>> | undefined;
  before(async () => {
    node = await node22();
    if (node === undefined) return;
    [open, guarded] = await Promise.all([nodeServer(node, false), nodeServer(node, true)]);
  });
  after(async () => {
    await Promise.all([open?.stop(), guarded?.stop()]);
  });

  it("lists and calls tools over the socket, with the subprotocol selected", async (t) => {
    if (open === undefined) return t.skip(NODE22_MISSING);
    const socket = await TestSocket.open(open.url, [WEBSOCKET_PROTOCOL]);
    assert.equal(socket.protocol, WEBSOCKET_PROTOCOL);
    socket.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    socket.send(call(2, "add", { a: 2, b: 3 }));
    socket.send(call(3, "fails"));
    const list = await socket.answer(1);
    assert.deepEqual(list.result.tools.map((tool: { name: string }) => tool.name).slice(0, 2), ["add", "whoami"]);
    const sum = await socket.answer(2);
    assert.deepEqual(sum.result.content, [{ type: "text", text: "5" }]);
    assert.equal(sum.result._meta.response_type, "answer");
    assert.equal((await socket.answer(3)).result._meta.response_type, "failure");
    await socket.close();
  });

  it("answers bad frames with -32700, -32600, -32601 and a size error, and keeps serving", async (t) => {
    if (open === undefined) return t.skip(NODE22_MISSING);
    await assertBadFramesAnswered(open.url);
  });

  it("runs every message with the upgrade's headers (a header middleware), and names the wire in errors", async (t) => {
    if (open === undefined) return t.skip(NODE22_MISSING);
    await assertUpgradeHeadersSeen(open.port);
  });

  it("refuses the upgrade without a token with the bearer challenge, and takes one from the subprotocol", async (t) => {
    if (guarded === undefined) return t.skip(NODE22_MISSING);
    await assert.rejects(TestSocket.open(guarded.url, [WEBSOCKET_PROTOCOL]), /refused/);
    await assert.rejects(TestSocket.open(guarded.url, [WEBSOCKET_PROTOCOL, bearerProtocol("bad.token")]), /refused/);
    const refusal = await rawUpgrade(guarded.port, WEBSOCKET_PROTOCOL);
    assert.match(refusal, /^HTTP\/1\.1 401 /);
    assert.match(refusal, /\r\nwww-authenticate: Bearer resource_metadata=/i);

    const socket = await TestSocket.open(guarded.url, [WEBSOCKET_PROTOCOL, bearerProtocol("good.token")]);
    assert.equal(socket.protocol, WEBSOCKET_PROTOCOL); // the token is never echoed
    socket.send(call(1, "whoami"));
    assert.equal((await socket.answer(1)).result.content[0].text, "ada");
    await socket.close();
  });
});
