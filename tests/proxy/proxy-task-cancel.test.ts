/**
 * `proxy()` cancelling a remote task it started with the caller's credentials (`exchangeToken`): the
 * `tasks/cancel` goes with those credentials too, so the remote that knows the task by them cancels its
 * work. The remote is server-everything over Streamable HTTP, whose tasks belong to the session that
 * started them (each caller's token has its own session at the remote).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServer } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import type { AuthInfo } from "../../src/core/call/host.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { SECRET } from "../helpers/long-running.ts";
import { readJsonRpc } from "../helpers/sse.ts";
import { everythingHttp } from "./everything-peer.ts";
import type { RemoteProcess } from "./remote-process.ts";
import { protectedResource } from "../../src/auth/mod.ts";

/** A request the proxy sent the remote: its method, `Authorization`, session and revision. */
interface Sent {
  readonly method: string;
  readonly authorization: string | null;
  readonly session: string | null;
  readonly version: string | null;
}

/** The statuses of the tasks the remote holds in a session (`tasks/list`, MCP 2025-11-25, Tasks), asked directly. */
async function remoteTasks(url: string, sent: Sent): Promise<string[]> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": sent.session!,
      "mcp-protocol-version": sent.version!,
      authorization: sent.authorization!,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/list", params: {} }),
  });
  const reply = await readJsonRpc(response);
  return (reply.result.tasks as { status: string }[]).map((task) => task.status);
}

describe("proxy() cancelling a remote task started with the caller's credentials", () => {
  let remote: RemoteProcess;
  const stop = new AbortController();
  before(async () => {
    remote = everythingHttp();
    await remote.start();
  });
  after(async () => {
    stop.abort();
    await remote.kill();
  });

  it("cancels the remote's work with the credentials the task was started with", async () => {
    const sent: Sent[] = [];
    const recording = async (input: Request | string | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const body = request.method === "POST" ? await request.clone().text() : "";
      const method = /"method":"([^"]+)"/.exec(body)?.[1] ?? request.method;
      const response = await fetch(request);
      const session = request.headers.get("mcp-session-id") ?? response.headers.get("mcp-session-id");
      const version = request.headers.get("mcp-protocol-version");
      sent.push({ method, authorization: request.headers.get("authorization"), session, version });
      return response;
    };
    const gateway = createServer({
      name: "gateway",
      version: "1.0.0",
      secret: SECRET,
      auth: protectedResource({
        resource: "https://gateway.example.com",
        authorizationServers: ["https://auth.example.com"],
        verify: (token: string): AuthInfo | undefined => token === "ada" ? { subject: "ada", token } : undefined,
      }),
    }).group(
      "everything",
      await proxy(remote.url, {
        transport: "mcp",
        fetch: recording,
        exchangeToken: (token) => `exchanged-${token}`,
        refreshMs: 0,
        signal: stop.signal,
      }),
    );
    const client = createClient(gateway, { transport: "mcp", headers: { authorization: "Bearer ada" } });

    const handle = await client.call("everything.simulate-research-query", { topic: "octopus" }, { wait: false });
    assert.ok(handle.kind === "promise" && handle.status !== undefined, "an MCP task");
    const started = sent.find((s) => s.method === "tools/call");
    assert.equal(started?.authorization, "Bearer exchanged-ada");
    await client.cancel(handle);

    const cancel = sent.find((s) => s.method === "tasks/cancel");
    assert.equal(cancel?.authorization, "Bearer exchanged-ada", "tasks/cancel went with the caller's credentials");
    assert.equal(cancel?.session, started?.session, "and in the session the task belongs to");
    // The remote's own view of the task, asked in that session: cancelled, not still working.
    assert.deepEqual(await remoteTasks(remote.url, cancel!), ["cancelled"]);
  });
});
