/**
 * What a caller sees of a remote's failure through `proxy()`: the remote's name, a reason and when to retry,
 * never the proxy's own secrets (the remote's URL with its query, an HTTP error's body quoting the proxy's
 * bearer token, a stdio child's stderr), on any wire the gateway serves; the detail goes to `onError`. A
 * remote that refuses the proxy's credentials (401) is a 503 of the gateway, never its own 401 challenge.
 * The remotes are real: an HTTP server on 127.0.0.1 and a stdio child.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import type { Server } from "../../src/server/server.ts";
import type { AuthInfo } from "../../src/core/call/host.ts";
import { mcpBinding } from "../../src/bindings/mcp/handler.ts";
import { mcpLiteBinding } from "../../src/bindings/mcplite/handler.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { serve } from "../../src/server/serve.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { modernRequest, post, toolsCall } from "../helpers/request.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { protectedResource } from "../../src/auth/mod.ts";

const KEY = "QUERY-KEY-91c2";
const TOKEN = "PROXY-TOKEN-7f3a";
const STDERR = "STDERR-SECRET-5c1d";
const SECRETS = [KEY, TOKEN, STDERR];
const CALLER = { authorization: "Bearer caller-token" };

/** How the remote answers: as the server it is, or with an HTTP error of its own. */
type Mode = "ok" | "html" | "500" | "401";

/** A gateway behind its own bearer authentication, on MCP, MCP-lite and Webtools, reporting to `reported`. */
function gatewayOf(reported: unknown[]): Server {
  return createServer({
    name: "gateway",
    version: "1.0.0",
    bindings: [mcpLiteBinding(), mcpBinding(), webtoolsBinding()],
    onError: (error) => void reported.push(error),
    auth: protectedResource({
      resource: "https://gateway.example.com",
      authorizationServers: ["https://auth.example.com"],
      verify: (token: string): AuthInfo | undefined => token === "caller-token" ? { subject: "ada", token } : undefined,
    }),
  });
}

/** Calls a tool through the gateway on each wire: each raw answer (status, headers and body). */
async function callEveryWire(gateway: Server, tool: string): Promise<Map<string, Response>> {
  const answers = new Map<string, Response>();
  answers.set("mcp-lite", await gateway.fetch(post("/mcp-lite/v1/calltools", toolsCall(tool, { text: "hi" }), CALLER)));
  answers.set(
    "mcp",
    await gateway.fetch(modernRequest("tools/call", { name: tool, arguments: { text: "hi" } }, 1, CALLER)),
  );
  answers.set(
    "webtools",
    await gateway.fetch(post("/webtools/", { action: tool, request: { text: "hi" } }, CALLER)),
  );
  return answers;
}

/** Asserts that no answer holds a secret, in its headers or body; the answers' bodies, parsed. */
async function assertNoSecrets(answers: Map<string, Response>): Promise<Map<string, { status: number; body: any }>> {
  const read = new Map<string, { status: number; body: any }>();
  for (const [wire, answer] of answers) {
    const text = await answer.text();
    const seen = `${[...answer.headers].map(([k, value]) => `${k}: ${value}`).join("\n")}\n${text}`;
    for (const secret of SECRETS) assert.ok(!seen.includes(secret), `${wire} answered ${secret}: ${seen}`);
    read.set(wire, { status: answer.status, body: JSON.parse(text) });
  }
  return read;
}

/** Whether what `onError` received says `secret` (in a message, or the causes'). */
function reportedSays(reported: unknown[], secret: string): boolean {
  const says = (error: unknown, depth = 0): boolean =>
    error instanceof Error && depth < 5 && (error.message.includes(secret) || says(error.cause, depth + 1));
  return reported.some((error) => says(error));
}

describe("proxy(): a remote's failure as a caller sees it", () => {
  let mode: Mode = "ok";
  const upstream = createServer({ name: "upstream", version: "1.0.0" })
    .tool(defineTool("echo").describe("Echoes").input(v.object({ text: v.string() })).handle(({ text }) => text));
  let remote: { url: string; close(): Promise<void> };
  const stop = new AbortController();
  before(async () => {
    const fetch = (request: Request): Response | Promise<Response> => {
      if (mode === "html") return new Response("<html>moved</html>", { headers: { "content-type": "text/html" } });
      if (mode === "500") {
        const body = `upstream rejected: Authorization: ${request.headers.get("authorization")}`;
        return new Response(body, { status: 500, headers: { "content-type": "text/plain" } });
      }
      if (mode === "401") {
        return new Response("token expired", {
          status: 401,
          headers: { "www-authenticate": 'Bearer error="invalid_token"' },
        });
      }
      return upstream.fetch(request);
    };
    remote = await serve({ fetch }, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    stop.abort();
    await remote.close();
  });

  async function gatewayFor(reported: unknown[]): Promise<Server> {
    mode = "ok";
    const proxied = await proxy(`${remote.url}/mcp?key=${KEY}`, {
      transport: "mcp",
      headers: { authorization: `Bearer ${TOKEN}` },
      refreshMs: 0,
      signal: stop.signal,
    });
    return gatewayOf(reported).group("up", proxied);
  }

  for (const [failure, secret] of [["html", KEY], ["500", TOKEN]] as const) {
    it(`answers a remote's ${failure} without ${secret === KEY ? "its URL's query" : "its body"}`, async () => {
      const reported: unknown[] = [];
      const gateway = await gatewayFor(reported);
      mode = failure;
      const read = await assertNoSecrets(await callEveryWire(gateway, "up.echo"));
      assert.equal(read.get("mcp-lite")!.status, 503);
      assert.equal(read.get("webtools")!.status, 503);
      const error = read.get("mcp-lite")!.body.error;
      assert.equal(error.data.code, "unavailable");
      assert.equal(error.data.remote, "upstream");
      assert.equal(error.data.reason, "bad_reply");
      assert.equal(error.data.retryAfterMs, 1_000);
      assert.ok(reportedSays(reported, secret), "onError heard the detail");
    });
  }

  it("answers a remote's 401 to the proxy's credentials as 503, never the gateway's own 401", async () => {
    const reported: unknown[] = [];
    const gateway = await gatewayFor(reported);
    mode = "401";
    const answers = await callEveryWire(gateway, "up.echo");
    for (const [wire, answer] of answers) {
      assert.equal(answer.headers.get("www-authenticate"), null, wire);
      assert.notEqual(answer.status, 401, wire);
    }
    const read = await assertNoSecrets(answers);
    assert.equal(read.get("mcp-lite")!.status, 503);
    assert.equal(read.get("mcp")!.status, 503);
    const error = read.get("mcp-lite")!.body.error;
    assert.equal(error.data.reason, "credentials_refused");
    assert.match(error.message, /refused the gateway's credentials/);
    assert.ok(reported.length > 0, "onError heard the remote's refusal");
  });

  it("answers a stdio child that died without its stderr", async () => {
    const reported: unknown[] = [];
    const command = runtimeCommand(new URL("./leaking-stdio-server.ts", import.meta.url).pathname);
    const gateway = gatewayOf(reported).group("local", await proxy(command, { refreshMs: 0, signal: stop.signal }));
    const crashed = await gateway.fetch(post("/mcp-lite/v1/calltools", toolsCall("local.die", {}), CALLER));
    const read = await assertNoSecrets(new Map([["mcp-lite", crashed]]));
    const error = read.get("mcp-lite")!.body.error;
    assert.equal(read.get("mcp-lite")!.status, 503);
    assert.deepEqual([error.data.remote, error.data.reason], ["leaking", "unreachable"]);
    assert.ok(reportedSays(reported, STDERR), "onError heard the child's stderr");
  });
});
