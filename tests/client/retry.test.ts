/**
 * The typed client's retries (`createClient(target, { retry })`): a request refused as unavailable
 * (503 with `Retry-After`, -32603 with `data.reason: "unavailable"`, gRPC `UNAVAILABLE`) is sent again
 * after the server's hint when it is safe to repeat (MCP `tasks/get`, lists, a call the server refused
 * before running it), bounded in attempts and time, cancellable; a `tools/call` that may have run is
 * never sent again; `retry: false` throws at once. Against real servers: a real redis-server stopped and
 * restarted under MCP tasks, and a real JWKS endpoint that fails then recovers, in front of MCP-lite,
 * MCP 2026 and gRPC (serveGrpc over HTTP/2).
 */
import assert from "node:assert/strict";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import { closeClientSessions, grpcOverH2 } from "../helpers/h2-sessions.ts";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { createClient as createRedisClient } from "redis";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { jwtAuth } from "../../src/auth/mod.ts";
import { grpcBinding, type GrpcListener, serveGrpc } from "../../src/bindings/grpc/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { McpliteError } from "../../src/errors/mod.ts";
import type { RetryOptions } from "../../src/client/mod.ts";
import type { RetryEvent } from "../../src/client/mod.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import type { Listener } from "../../src/types.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

if (REDIS_MISSING) console.error(`client retry over a Redis outage: skipped: ${REDIS_MISSING}`);

describe("the client through a store outage", { skip: REDIS_MISSING }, () => {
  let dir: string;
  let redis: RedisServer;
  let store: ReturnType<typeof createRedisClient>;
  let listener: Listener;
  let release = () => {};
  let runs = 0;
  let down = false;
  const stop = async () => {
    await redis.stop();
    down = true;
  };
  const restart = async () => {
    redis = await startRedis({ port: redis.port, persistIn: dir });
    down = false;
    await waitFor(() => store.isReady); // node-redis reconnects with a backoff
  };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "mcplite-redis-"));
    redis = await startRedis({ persistIn: dir });
    store = createRedisClient({ url: redis.url });
    store.on("error", () => {}); // node-redis needs a listener; the outage reaches onError
    await store.connect();
    const server = createServer({
      name: "jobs",
      version: "0.0.1",
      secret: SECRET,
      resultStore: redisResultStore(store),
      onError: () => {},
      bindings: [mcpBinding(), mcpLiteBinding()],
    }).tool(
      defineTool("work").describe("Answers once released").input(v.object({ n: v.number() }))
        .longRunning({ retryAfterMs: 50 })
        .handle(({ n }, ctx) => {
          runs++;
          const released = new Promise<void>((resolve) => release = resolve);
          return ctx.defer(async () => (await released, { n }));
        }),
    );
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    release();
    await listener.close();
    if (store.isOpen) store.destroy();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    release();
    if (down) await restart();
  });

  /** The `tasks/get` requests sent, counted by a client's fetch. */
  let gets = 0;
  const counting = (request: Request) => {
    if (request.headers.get("mcp-method") === "tasks/get") gets++;
    return fetch(request);
  };
  const mcp = (retry?: RetryOptions | false) =>
    createClient(listener.url + "/mcp", {
      transport: "mcp",
      fetch: counting,
      ...(retry === undefined ? {} : { retry }),
    });

  /** Starts a task, then stops Redis. */
  async function taskThenOutage(client: ReturnType<typeof createClient>) {
    const handle = await client.call("work", { n: 7 }, { wait: false });
    assert.equal(handle.kind, "promise");
    assert.ok(handle.kind === "promise" && handle.status === "working", "an MCP task: its status reported");
    await stop();
    return handle;
  }

  it("MCP tasks/get: retried after Retry-After until Redis is back; the call succeeds", async () => {
    const retries: RetryEvent[] = [];
    let restarted: Promise<void> | undefined;
    const client = mcp({
      maxAttempts: 10,
      maxDelayMs: 30_000,
      onRetry: (retry: RetryEvent) => {
        retries.push(retry);
        restarted ??= restart().then(() => release());
      },
    });
    const handle = await taskThenOutage(client);
    assert.deepEqual(await client.resume(handle), { n: 7 });
    await restarted;
    assert.ok(retries.length >= 1);
    assert.equal(retries[0].method, "tasks/get");
    assert.equal(retries[0].delayMs, 1_000, "the server's hint: Retry-After 1 (retryAfterMs 1 000)");
    assert.equal(retries[0].error.status, 503);
    await client.close();
  });

  it("maxAttempts is respected: 2 attempts, then the refusal", async () => {
    const retries: RetryEvent[] = [];
    const client = mcp({ maxAttempts: 2, onRetry: (retry: RetryEvent) => retries.push(retry) });
    const handle = await taskThenOutage(client);
    const error = await client.resume(handle).then(() => undefined, (e) => e);
    assert.ok(error instanceof McpliteError, String(error));
    assert.equal(error.status, 503);
    assert.equal(retries.length, 1);
  });

  it("retry: false throws at once", async () => {
    const client = mcp(false);
    const handle = await taskThenOutage(client);
    gets = 0;
    const error = await client.resume(handle).then(() => undefined, (e) => e);
    assert.ok(error instanceof McpliteError && error.status === 503, String(error));
    assert.equal(gets, 1, "one tasks/get: no wait for Retry-After, no second attempt");
  });

  it("the caller's signal cancels the wait", async () => {
    const abort = new AbortController();
    const retries: RetryEvent[] = [];
    const client = mcp({
      onRetry: (retry) => {
        retries.push(retry);
        abort.abort(new Error("stop")); // as its wait begins
      },
    });
    const handle = await taskThenOutage(client);
    gets = 0;
    // The abort's reason, not the 503 a second attempt would end with: the 1 s wait was cut short.
    await assert.rejects(client.resume(handle, { signal: abort.signal }), /stop/);
    assert.deepEqual(retries.map((retry) => retry.delayMs), [1_000]);
    assert.equal(gets, 1, "no attempt after the cancelled wait");
  });

  it("a tools/call that may have run is not sent again (MCP-lite and MCP)", async () => {
    await stop();
    for (const transport of ["mcp-lite", "mcp"] as const) {
      const retries: RetryEvent[] = [];
      const url = listener.url + (transport === "mcp" ? "/mcp" : "/mcp-lite/v1");
      const client = createClient(url, { transport, retry: { onRetry: (r) => retries.push(r) } });
      const before = runs;
      const error = await client.call("work", { n: 1 }).then(() => undefined, (e) => e);
      assert.ok(error instanceof McpliteError && error.status === 503, `${transport}: ${error}`);
      assert.equal(retries.length, 0, `${transport}: not retried`);
      assert.equal(runs, before + 1, `${transport}: the handler ran once`);
      await client.close();
    }
  });
});

describe("the client refused before its call ran (the issuer's keys unavailable)", () => {
  const ISSUER = "https://auth.example.com";
  const RESOURCE = "http://127.0.0.1/";
  let keys: JWK[] = [];
  let token = "";
  let down = true;
  let fetches = 0;
  const jwks = createHttpServer((_req, res) => {
    fetches++;
    if (down) res.writeHead(500).end("down");
    else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys }));
  });
  let jwksUri = "";
  before(async () => {
    const pair = await generateKeyPair("ES256");
    keys = [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" }];
    token = await new SignJWT({ scope: "docs:read" })
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "k1" })
      .setIssuer(ISSUER).setAudience(RESOURCE).setSubject("ada").setIssuedAt().setExpirationTime("5m")
      .sign(pair.privateKey);
    await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
    jwksUri = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
  });
  after(async () => {
    jwks.closeAllConnections();
    await new Promise((resolve) => jwks.close(resolve));
  });

  /** A server with its own key cache, so that each wire meets a cold cache and a failing endpoint. */
  function docsServer() {
    let calls = 0;
    const server = createServer({
      name: "docs",
      version: "1.0.0",
      auth: jwtAuth({ issuer: ISSUER, resource: RESOURCE, jwksUri }),
      bindings: [mcpBinding(), mcpLiteBinding(), grpcBinding()],
    }).tool(defineTool("read_doc").describe("Reads a doc").handle(() => `doc ${++calls}`));
    return server;
  }

  const recover = (retries: RetryEvent[]) => (retry: RetryEvent) => {
    retries.push(retry);
    down = false; // the issuer is back before the retry
  };

  for (const transport of ["mcp-lite", "mcp"] as const) {
    it(`${transport}: the tool call is sent again after Retry-After and runs once`, async () => {
      down = true;
      fetches = 0;
      const listener = await serve(docsServer(), { port: 0, hostname: "127.0.0.1", quiet: true });
      try {
        const retries: RetryEvent[] = [];
        const url = listener.url + (transport === "mcp" ? "/mcp" : "/mcp-lite/v1");
        const client = createClient(url, {
          transport,
          headers: { authorization: `Bearer ${token}` },
          retry: { onRetry: recover(retries) },
        });
        assert.equal(await client.call("read_doc", {}), "doc 1");
        assert.equal(retries.length, 1);
        assert.equal(retries[0].method, "tools/call");
        assert.equal(retries[0].delayMs, 1_000, "the issuer's backoff, as Retry-After");
        assert.equal(fetches, 2);
        await client.close();
      } finally {
        closeClientSessions(); // before the listener's GOAWAY (tests/helpers/h2-sessions.ts)
        await listener.close();
      }
    });
  }

  for (const what of ["tools/call", "tools/list"] as const) {
    it(`gRPC (serveGrpc): ${what} refused UNAVAILABLE before it ran is retried`, async () => {
      down = true;
      const listener: GrpcListener = await serveGrpc(docsServer(), { port: 0, closeGraceMs: 200 });
      try {
        const retries: RetryEvent[] = [];
        const transport = grpcTransport(grpcOverH2(listener.url), {
          headers: { authorization: `Bearer ${token}` },
        });
        const client = createClient(transport, { retry: { onRetry: recover(retries) } });
        if (what === "tools/call") assert.equal(await client.call("read_doc", {}), "doc 1");
        else assert.deepEqual((await client.listTools()).map((tool) => tool.name), ["read_doc"]);
        assert.equal(retries.length, 1);
        assert.equal(retries[0].method, what);
        assert.equal((retries[0].error.data as Record<string, unknown>).grpcCode, "Unavailable");
        await client.close();
      } finally {
        closeClientSessions(); // before the listener's GOAWAY (tests/helpers/h2-sessions.ts)
        await listener.close();
      }
    });
  }

  it("retry: false: the refusal is thrown at once", async () => {
    down = true;
    const listener = await serve(docsServer(), { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const client = createClient(listener.url + "/mcp-lite/v1", {
        transport: "mcp-lite",
        headers: { authorization: `Bearer ${token}` },
        retry: false,
      });
      const error = await client.call("read_doc", {}).then(() => undefined, (e) => e);
      assert.ok(error instanceof McpliteError && error.status === 503, String(error));
    } finally {
      await listener.close();
    }
  });
});
