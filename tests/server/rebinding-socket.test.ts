/**
 * DNS rebinding against a server on this machine, over a real socket: a page on an attacker's host name
 * that resolves to 127.0.0.1 reaches the listener, and its requests name that host. The default must
 * refuse them on `serve()` (Deno.serve or Bun.serve on 127.0.0.1), whatever it allows on Workers.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { fixtureServer } from "../helpers/fixtures.ts";
import { toolsCall } from "../helpers/request.ts";

let listener: Listener;
before(async () => listener = await serve(fixtureServer(), { port: 0, hostname: "127.0.0.1" }));
after(async () => await listener.close());

/** Sends one tools/call with the given `Host` (fetch cannot set it) and resolves with the status line. */
function callWithHost(host: string): Promise<string> {
  const body = JSON.stringify(toolsCall("add", { a: 1, b: 2 }));
  return new Promise((resolve, reject) => {
    const socket = connect(listener.port, "127.0.0.1");
    const timer = setTimeout(() => done(new Error("no answer within 5 s")), 5000);
    const done = (value: string | Error) => {
      clearTimeout(timer);
      socket.destroy();
      value instanceof Error ? reject(value) : resolve(value);
    };
    socket.on("connect", () => {
      socket.write(
        `POST /mcp-lite/v1/calltools HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    socket.on("data", (data) => done(String(data).split("\r\n")[0]));
    socket.on("error", (error) => done(error));
  });
}

describe("a loopback server and a rebinding page", () => {
  it("refuses a request naming the attacker's host name with 403", async () => {
    assert.match(await callWithHost(`rebind.evil.example:${listener.port}`), /^HTTP\/1\.1 403/);
  });

  it("answers the same request naming a loopback host", async () => {
    assert.match(await callWithHost(`localhost:${listener.port}`), /^HTTP\/1\.1 200/);
    assert.match(await callWithHost(`127.0.0.1:${listener.port}`), /^HTTP\/1\.1 200/);
  });
});
