/**
 * An extension's own messages (SEP-2133) at the wire, in process: a client notification the extension
 * declared runs its handler and is never answered (MCP 2026-07-28 Streamable HTTP: 202, no body), invalid
 * params and a failing handler go to `onError`, an undeclared notification changes nothing; `ctx.notify()`
 * turns a request's HTTP answer into SSE (the notification first, the result last), and is dropped where the
 * client accepts no stream; `ctx.request()` rejects on 2026-07-28; an MCP-lite JSON-RPC endpoint answers the
 * extension's methods. A notification's failure is never answered on any wire (JSON-RPC 2.0, §4.1): a request of
 * its name is answered `{}` (MCP, MCP-lite, gRPC), a JSON-RPC notification to MCP-lite's endpoint 202 with no body. The definition's rules for notification names are checked without a wire.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineExtension, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { waitFor } from "../helpers/wait.ts";

const LEDGER = "org.example/ledger";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { extensions: { [LEDGER]: {} } },
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1.0.0" },
};

function bank(bindings?: Parameters<typeof createServer>[0]["bindings"]) {
  const errors: unknown[] = [];
  const touched: unknown[] = [];
  const ledger = defineExtension(LEDGER)
    .method(`${LEDGER}/get`, v.object({ id: v.string() }), async ({ id }, ctx) => {
      await ctx.notify(`${LEDGER}/changed`, { id });
      return { id };
    })
    .method(`${LEDGER}/ask`, v.object({}), async (_params, ctx) => {
      const error = await ctx.request(`${LEDGER}/approve`).then(() => undefined, (e) => e);
      return { refused: (error as { code?: string })?.code ?? null };
    })
    .notification(`${LEDGER}/touched`, v.object({ id: v.string() }), ({ id }, ctx) => {
      if (id === "boom") throw new Error("the handler failed");
      touched.push({ id, declared: ctx.client.extensions?.[LEDGER] ?? null });
    });
  const server = createServer({
    name: "bank",
    version: "1.0.0",
    onError: (error) => void errors.push(error),
    ...(bindings === undefined ? {} : { bindings }),
  }).extension(ledger);
  return { server, errors, touched };
}

/** POSTs one 2026-07-28 message to `/mcp`. */
function post(
  server: { fetch(request: Request): Response | Promise<Response> },
  method: string,
  params: Record<string, unknown>,
  id?: number,
  accept = "application/json, text/event-stream",
) {
  return server.fetch(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        ...(id === undefined ? {} : { id }),
        method,
        params: { ...params, _meta: ENVELOPE },
      }),
    }),
  );
}

describe("a client notification an extension declares", () => {
  it("runs its handler with what the client declared, answered 202 with no body", async () => {
    const { server, touched, errors } = bank();
    const response = await post(server, `${LEDGER}/touched`, { id: "a1" });
    assert.equal(response.status, 202);
    assert.equal(await response.text(), "");
    await waitFor(() => touched.length > 0, 10_000, "the handler's run"); // it runs after the 202
    assert.deepEqual(touched, [{ id: "a1", declared: {} }]);
    assert.deepEqual(errors, []);
  });

  it("reports invalid params and a failing handler to onError, answering nothing", async () => {
    const { server, touched, errors } = bank();
    for (const id of [7, "boom"]) {
      const response = await post(server, `${LEDGER}/touched`, { id });
      assert.equal(response.status, 202);
    }
    await waitFor(() => errors.length >= 2, 10_000, "both reports to onError"); // they come after the 202s
    assert.deepEqual(touched, []);
    assert.equal(errors.length, 2);
    assert.match(String((errors[0] as Error).message), /Invalid params for org\.example\/ledger\/touched/);
    assert.equal((errors[1] as Error).message, "the handler failed");
  });

  it("answers a request of its name (an MCP-lite client's, on a connection) with {}, its failure going to onError", async () => {
    const { server, touched, errors } = bank();
    for (const id of ["a1", 7, "boom"]) {
      const response = await post(server, `${LEDGER}/touched`, { id }, 1, "application/json");
      assert.equal(response.status, 200);
      const answer = await response.json();
      assert.equal(answer.error, undefined, JSON.stringify(answer));
      assert.equal(Object.keys(answer.result).filter((key) => key !== "_meta" && key !== "resultType").length, 0);
    }
    assert.deepEqual(touched, [{ id: "a1", declared: {} }]);
    assert.deepEqual((errors as Error[]).map((e) => e.message.split(":")[0]), [
      `Invalid params for ${LEDGER}/touched`,
      "the handler failed",
    ]);
  });

  it("changes nothing when undeclared, and a request's method is not run by a notification", async () => {
    const { server, touched, errors } = bank();
    for (const method of [`${LEDGER}/unknown`, `${LEDGER}/get`]) {
      assert.equal((await post(server, method, { id: "x" })).status, 202);
    }
    // A declared notification after them, its handler's run awaited: each is dispatched as it arrives, so whatever
    // they changed would have come before it.
    assert.equal((await post(server, `${LEDGER}/touched`, { id: "after" })).status, 202);
    await waitFor(() => touched.length > 0, 10_000, "the later notification's run");
    assert.deepEqual([touched, errors], [[{ id: "after", declared: {} }], []]);
  });
});

describe("ctx.notify() and ctx.request() in a method", () => {
  it("sends the notification on the request's SSE answer, before the result", async () => {
    const response = await post(bank().server, `${LEDGER}/get`, { id: "a1" }, 1);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    const messages = (await response.text()).split("\n").filter((line) => line.startsWith("data: ")).map((line) =>
      JSON.parse(line.slice(6))
    );
    assert.deepEqual(messages.map((m) => m.method ?? m.result?.id), [`${LEDGER}/changed`, "a1"]);
    assert.deepEqual(messages[0].params, { id: "a1" });
  });

  it("drops the notification for a client that accepts no stream, answering JSON", async () => {
    const response = await post(bank().server, `${LEDGER}/get`, { id: "a1" }, 1, "application/json");
    assert.equal(response.headers.get("content-type")?.startsWith("application/json"), true);
    assert.equal((await response.json()).result.id, "a1");
  });

  it("rejects a server→client request on 2026-07-28 (it has none) as unsupported", async () => {
    const response = await post(bank().server, `${LEDGER}/ask`, {}, 1);
    assert.equal((await response.json()).result.refused, "unsupported");
  });
});

describe("MCP-lite's JSON-RPC endpoint", () => {
  it("answers the extension's method, and its notification with an empty result", async () => {
    const { server, touched } = bank();
    const rpc = async (method: string, params: Record<string, unknown>) =>
      await (await server.fetch(
        new Request("http://localhost/mcp-lite/v1/rpc", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        }),
      )).json();
    assert.deepEqual((await rpc(`${LEDGER}/get`, { id: "l1" })).result, { id: "l1" });
    assert.deepEqual((await rpc(`${LEDGER}/touched`, { id: "l2" })).result, {});
    assert.deepEqual(touched, [{ id: "l2", declared: null }]);
    assert.equal((await rpc(`${LEDGER}/get`, { id: 7 })).error.code, -32602);
    assert.equal((await rpc(`${LEDGER}/nope`, {})).error.code, -32601);
  });

  it("never answers a notification's failure: {} with an id, 202 and no body without; onError hears each", async () => {
    const { server, touched, errors } = bank();
    const send = (body: Record<string, unknown>) =>
      server.fetch(
        new Request("http://localhost/mcp-lite/v1/rpc", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", method: `${LEDGER}/touched`, ...body }),
        }),
      );
    for (const params of [{ id: "boom" }, { id: 7 }]) {
      const answered = await send({ id: 1, params });
      assert.equal(answered.status, 200);
      assert.deepEqual(await answered.json(), { jsonrpc: "2.0", id: 1, result: {} });
      const notified = await send({ params });
      assert.equal(notified.status, 202);
      assert.equal(await notified.text(), "");
    }
    const ran = await send({ params: { id: "n1" } });
    assert.deepEqual([ran.status, await ran.text()], [202, ""]);
    assert.deepEqual(touched, [{ id: "n1", declared: null }]);
    assert.deepEqual((errors as Error[]).map((e) => e.message.split(":")[0]), [
      "the handler failed",
      "the handler failed",
      `Invalid params for ${LEDGER}/touched`,
      `Invalid params for ${LEDGER}/touched`,
    ]);
  });

  it("gRPC's CallMethod answers a failing notification {}, its failure going to onError", async () => {
    const { server, errors } = bank([mcpBinding(), mcpLiteBinding(), grpcBinding()]);
    const response = await server.fetch(
      new Request("http://localhost/mcplite.MCPLite/CallMethod", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ method: `${LEDGER}/touched`, params: { id: "boom" } }),
      }),
    );
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { result: {} });
    assert.deepEqual((errors as Error[]).map((e) => e.message), ["the handler failed"]);
  });
});

describe("the definition's rules for notifications", () => {
  it("keeps a notification's name under the identifier, apart from MCP's and from the extension's methods", () => {
    const ledger = defineExtension(LEDGER).method(`${LEDGER}/get`, v.object({}), () => ({}));
    assert.throws(
      () => ledger.notification("notifications/cancelled" as never, v.object({}), () => {}),
      /notifications\/cancelled is a method of MCP itself/,
    );
    assert.throws(
      () => ledger.notification("org.example/touched" as never, v.object({}), () => {}),
      /"org\.example\/ledger\/" and a verb/,
    );
    assert.throws(() => ledger.notification(`${LEDGER}/get`, v.object({}), () => {}), /defined already/);
    const touched = ledger.notification(`${LEDGER}/touched`, v.object({}), () => {});
    assert.throws(() => touched.method(`${LEDGER}/touched`, v.object({}), () => ({})), /defined already/);
    assert.deepEqual([...touched.notifications.keys()], [`${LEDGER}/touched`]);
    assert.equal(ledger.notifications.size, 0, "immutable: the builder returns a new extension");
  });

  it("refuses a notification outside the identifier", () => {
    const other = defineExtension("org.example/other");
    assert.throws(() => other.notification(`${LEDGER}/touched` as never, v.object({}), () => {}), /and a verb/);
  });
});
